import "server-only";

import { AppError } from "@/lib/shared/errors";
import { paperOrder } from "@/lib/shared/paper-order";
import type { CandidateQuestion } from "@/lib/shared/schemas/exams";
import type { CandidateResult } from "@/lib/shared/schemas/results";
import type { ResultQuestion } from "@/lib/shared/scoring/paper-result";
import { unitsToPoints } from "@/lib/shared/scoring/score-units";

import { queryRows, sql } from "../db/sql";

type Row = {
  attempt_id: string;
  status: string;
  title: string;
  visibility: "never" | "after_release" | "immediately";
  results_detail: "total" | "per_question";
  released_at: Date | null;
  shuffle_questions: boolean;
  shuffle_options: boolean;
  shuffle_seed: number;
  score_units: string | null;
  max_units: string | null;
  pending: number | null;
  questions: ResultQuestion[] | null;
  result_is_current: boolean;
};

/**
 * `GET /api/attempts/{attemptId}/result`: the candidate's own result, only when they may see it
 * (docs/results.md, "Release"): the exam shows results (`resultsVisibility` not "never"), and either they were
 * released, or they show "immediately" and no answer waits for a person. Otherwise 403 RESULTS_NOT_RELEASED with
 * nothing of the result in it — not whether it exists, not its total. Another enrollment's attempt is 404.
 * Per-question points and graders' comments only when the exam's `resultsDetail` is "per_question".
 */
export async function readCandidateResult(options: {
  attemptId: string;
  enrollmentId: string;
}): Promise<CandidateResult> {
  const [row] = await queryRows<Row>(
    sql`SELECT a.id::text AS attempt_id, a.status::text AS status, e.title, e.results_visibility AS visibility,
               e.results_detail, e.results_released_at AS released_at, e.shuffle_questions, e.shuffle_options,
               a.shuffle_seed, r.score_units::text AS score_units, r.max_units::text AS max_units, r.pending, r.questions,
               (r.submission_id = s.id) AS result_is_current
        FROM attempts a
        JOIN exams e ON e.id = a.exam_id
        LEFT JOIN submissions s ON s.attempt_id = a.id
        LEFT JOIN results r ON r.attempt_id = a.id
        WHERE a.id = ${options.attemptId}::uuid AND a.enrollment_id = ${options.enrollmentId}::uuid`,
  );
  if (!row) throw new AppError("NOT_FOUND", "No such attempt.");
  const isScored = row.status === "submitted" && row.score_units !== null && row.result_is_current === true;
  const mayShow =
    isScored &&
    (row.visibility === "after_release"
      ? row.released_at !== null
      : row.visibility === "immediately"
        ? row.released_at !== null || row.pending === 0
        : false);
  if (!mayShow) {
    throw new AppError("RESULTS_NOT_RELEASED", "Your result is not available yet.");
  }

  let questions: CandidateResult["questions"] = null;
  if (row.results_detail === "per_question") {
    const decided = new Map((row.questions ?? []).map((question) => [question.questionId, question]));
    const examQuestions = await queryRows<CandidateQuestion>(
      sql`SELECT q.id::text AS id, q.position, q.type::text AS type, q.prompt, q.points, q.options
          FROM questions q JOIN attempts a ON a.exam_id = q.exam_id
          WHERE a.id = ${options.attemptId}::uuid ORDER BY q.position`,
    );
    const comments = await queryRows<{ question_id: string; marker: string; comment: string }>(
      sql`SELECT question_id::text AS question_id, marker, comment FROM grades
          WHERE attempt_id = ${options.attemptId}::uuid AND comment <> ''`,
    );
    // The comment the candidate reads is the one behind the mark that counts: a settlement's, else the first's.
    const commentOf = new Map<string, string>();
    for (const marker of ["second", "first", "final"]) {
      for (const comment of comments)
        if (comment.marker === marker) commentOf.set(comment.question_id, comment.comment);
    }
    // In the candidate's own paper order (lib/shared/paper-order.ts, drawn exactly as their paper was: the
    // same questions, options and settings), numbered as their paper was.
    const ordered = paperOrder(
      examQuestions.map((question) => (question.options === null ? { ...question, options: undefined } : question)),
      { shuffleQuestions: row.shuffle_questions, shuffleOptions: row.shuffle_options },
      row.shuffle_seed,
    );
    questions = ordered.flatMap((question, index) => {
      const entry = decided.get(question.id);
      if (!entry || entry.source === "ungraded") return [];
      return [
        {
          position: index + 1,
          questionId: question.id,
          points: entry.units === null ? null : unitsToPoints(entry.units),
          maxPoints: unitsToPoints(entry.maxUnits),
          comment: commentOf.get(question.id) ?? null,
        },
      ];
    });
  }
  return {
    attemptId: row.attempt_id,
    examTitle: row.title,
    score: unitsToPoints(Number(row.score_units)),
    maxScore: unitsToPoints(Number(row.max_units)),
    graded: row.pending === 0,
    releasedAt: row.released_at?.toISOString() ?? null,
    questions,
  };
}

/**
 * Whether the candidate's exam shows results at all (`resultsVisibility` not "never"), for the result page's note
 * when the result is not available: "not released yet" or "this exam does not publish results". Says nothing of
 * the result itself. Null for another enrollment's attempt.
 */
export async function examShowsResults(options: { attemptId: string; enrollmentId: string }): Promise<boolean | null> {
  const [row] = await queryRows<{ visibility: string }>(
    sql`SELECT e.results_visibility AS visibility FROM attempts a JOIN exams e ON e.id = a.exam_id
        WHERE a.id = ${options.attemptId}::uuid AND a.enrollment_id = ${options.enrollmentId}::uuid`,
  );
  return row ? row.visibility !== "never" : null;
}
