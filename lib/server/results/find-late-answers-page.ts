import "server-only";

import type { LateAnswerReview } from "@/lib/shared/schemas/results";

import { queryRows, sql } from "../db/sql";
import { listLateAnswers } from "./late-answers";

/** A question as the late-answers page words an answer to it: choice ids become the options' labels. */
export type LateAnswerQuestion = {
  id: string;
  position: number;
  type: string;
  options: { id: string; label: string }[] | null;
};

/** One candidate's late answers, with the current total of their result (null while it is not computed yet). */
export type LateAnswerCandidate = {
  attemptId: string;
  name: string;
  email: string;
  total: { scoreUnits: number; maxUnits: number; pending: number } | null;
  lateAnswers: LateAnswerReview[];
};

/**
 * What `/admin/exams/[examId]/late-answers` shows: the exam's late answers (listLateAnswers) grouped by candidate,
 * in the order their first late answer arrived, each candidate's current result total, and the questions they
 * answer. Null for an unknown exam.
 */
export async function findLateAnswersPage(options: {
  examId: string;
}): Promise<{ candidates: LateAnswerCandidate[]; questions: LateAnswerQuestion[] } | null> {
  const { examId } = options;
  const lateAnswers = await listLateAnswers(examId);
  if (lateAnswers === null) return null;
  const attemptIds = [...new Set(lateAnswers.map((late) => late.attemptId))];
  const [questions, totals] = await Promise.all([
    queryRows<LateAnswerQuestion>(sql`
      SELECT id::text AS id, position, type::text AS type, options
      FROM questions WHERE exam_id = ${examId}::uuid ORDER BY position`),
    attemptIds.length === 0
      ? []
      : queryRows<{ attempt_id: string; score_units: bigint; max_units: bigint; pending: number }>(sql`
          SELECT attempt_id::text AS attempt_id, score_units, max_units, pending
          FROM results WHERE attempt_id = ANY(${attemptIds}::uuid[])`),
  ]);
  const totalOf = new Map(totals.map((row) => [row.attempt_id, row]));
  const candidates = new Map<string, LateAnswerCandidate>();
  for (const late of lateAnswers) {
    let candidate = candidates.get(late.attemptId);
    if (!candidate) {
      const total = totalOf.get(late.attemptId);
      candidate = {
        attemptId: late.attemptId,
        name: late.candidateName,
        email: late.candidateEmail,
        total: total
          ? { scoreUnits: Number(total.score_units), maxUnits: Number(total.max_units), pending: total.pending }
          : null,
        lateAnswers: [],
      };
      candidates.set(late.attemptId, candidate);
    }
    candidate.lateAnswers.push(late);
  }
  return { candidates: [...candidates.values()], questions };
}
