import "server-only";

import { randomUUID } from "node:crypto";

import { canonicalJson } from "@/lib/shared/digest";
import type { AnswerValue } from "@/lib/shared/schemas/attempts";
import type { ChoiceScoring, QuestionType } from "@/lib/shared/schemas/exams";
import { computePaperResult, type AnswerGrades, type PaperResult } from "@/lib/shared/scoring/paper-result";
import type { ScorableQuestion } from "@/lib/shared/scoring/score-answer";

import type { Prisma } from "../db/client";
import { queryRows, sql } from "../db/sql";
import { enqueueResultEvents } from "../webhooks/enqueue-deliveries";

type Tx = Prisma.TransactionClient;

export type ResultCause =
  "submitted" | "regraded" | "graded" | "late_answer_accepted" | "late_answer_rejected" | "settled";

/** Who caused a new result version: a person (with their label), the API token, or Holdfast itself. */
export type ResultActor =
  | { type: "staff"; staffUserId: string; label: string }
  | { type: "api-token"; label: string }
  | { type: "system"; label: string };

export const SYSTEM_ACTOR: ResultActor = { type: "system", label: "Holdfast" };

type QuestionRow = {
  id: string;
  type: QuestionType;
  points: number;
  answer_key: string | string[] | number | null;
  tolerance: number | null;
  scoring: ChoiceScoring | null;
  exact_match: boolean;
  ungraded: boolean;
};

type LockedResult = {
  attempt_id: string;
  version: number;
  submission_id: string;
  current_submission: string;
  questions: unknown;
};

/**
 * Brings the results of some submitted attempts of one exam up to date, in the caller's transaction: each whose
 * inputs changed (its frozen answers and submission, accepted late answers, grades, the exam's keys) gets a new
 * version in `result_versions` with `cause`, `actor` and `reason`, and `results` is set to it; an attempt whose
 * result would not change gets no version. Returns how many changed.
 *
 * Concurrency: every writer of a result goes through here, and here first makes sure each submitted attempt has
 * its `results` row (a version-0 placeholder inserted in this transaction, never seen by anyone else) and then
 * locks those rows FOR UPDATE in attempt id order before reading any input. Two writers of one result (two graders,
 * a grader and a regrade, a regrade and a submit) therefore run one after the other, and the second reads what the
 * first committed: no version is computed from stale inputs, and (attempt_id, version) stays unique.
 */
export async function recomputeResults(
  tx: Tx,
  options: { examId: string; attemptIds: readonly string[]; cause: ResultCause; actor: ResultActor; reason?: string },
): Promise<number> {
  if (options.attemptIds.length === 0) return 0;
  const ids = [...options.attemptIds];

  const [exam] = await queryRows<{ second_marking: boolean }>(
    sql`SELECT second_marking FROM exams WHERE id = ${options.examId}::uuid`,
    tx,
  );
  if (!exam) return 0;
  const questionRows = await queryRows<QuestionRow>(
    sql`SELECT id::text AS id, type::text AS type, points, answer_key, tolerance, scoring, exact_match, ungraded
        FROM questions WHERE exam_id = ${options.examId}::uuid ORDER BY position`,
    tx,
  );
  const questions: (ScorableQuestion & { id: string })[] = questionRows.map((row) => ({
    id: row.id,
    type: row.type,
    points: row.points,
    answerKey: row.answer_key,
    tolerance: row.tolerance,
    scoring: row.scoring,
    exactMatch: row.exact_match,
    ungraded: row.ungraded,
  }));

  await queryRows(
    sql`INSERT INTO results (attempt_id, exam_id, submission_id, version, score_units, max_units, pending, questions)
        SELECT a.id, a.exam_id, s.id, 0, 0, 0, 0, '[]'::jsonb
        FROM attempts a JOIN submissions s ON s.attempt_id = a.id
        WHERE a.id = ANY(${ids}::uuid[]) AND a.exam_id = ${options.examId}::uuid AND a.status = 'submitted'
        ON CONFLICT (attempt_id) DO NOTHING
        RETURNING attempt_id`,
    tx,
  );
  const locked = await queryRows<LockedResult>(
    sql`SELECT r.attempt_id::text AS attempt_id, r.version, r.submission_id::text AS submission_id,
               s.id::text AS current_submission, r.questions
        FROM results r
        JOIN attempts a ON a.id = r.attempt_id AND a.status = 'submitted'
        JOIN submissions s ON s.attempt_id = r.attempt_id
        WHERE r.attempt_id = ANY(${ids}::uuid[]) AND r.exam_id = ${options.examId}::uuid
        ORDER BY r.attempt_id
        FOR UPDATE OF r`,
    tx,
  );
  if (locked.length === 0) return 0;
  const lockedIds = locked.map((row) => row.attempt_id);

  const answers = await queryRows<{ attempt_id: string; question_id: string; value: AnswerValue }>(
    sql`SELECT attempt_id::text AS attempt_id, question_id::text AS question_id, value
        FROM answers WHERE attempt_id = ANY(${lockedIds}::uuid[])`,
    tx,
  );
  // Of several accepted late answers for one question, the greatest (version, device) is the candidate's last
  // edit, as the autosave rule would have chosen.
  const late = await queryRows<{ attempt_id: string; question_id: string; id: string; value: AnswerValue }>(
    sql`SELECT DISTINCT ON (l.attempt_id, l.question_id)
               l.attempt_id::text AS attempt_id, l.question_id::text AS question_id, l.id::text AS id, l.value
        FROM late_answers l JOIN late_answer_decisions d ON d.late_answer_id = l.id AND d.decision = 'accepted'
        WHERE l.attempt_id = ANY(${lockedIds}::uuid[])
        ORDER BY l.attempt_id, l.question_id, l.version DESC, l.device_id COLLATE "C" DESC`,
    tx,
  );
  const grades = await queryRows<{
    attempt_id: string;
    question_id: string;
    marker: keyof AnswerGrades;
    units: string;
  }>(
    sql`SELECT attempt_id::text AS attempt_id, question_id::text AS question_id, marker, units::text AS units
        FROM grades WHERE attempt_id = ANY(${lockedIds}::uuid[])`,
    tx,
  );

  const answersOf = groupBy(answers, (row) => row.attempt_id);
  const lateOf = groupBy(late, (row) => row.attempt_id);
  const gradesOf = groupBy(grades, (row) => row.attempt_id);

  const changed: { row: LockedResult; result: PaperResult; json: string }[] = [];
  for (const row of locked) {
    const gradeMap = new Map<string, AnswerGrades>();
    for (const grade of gradesOf.get(row.attempt_id) ?? []) {
      const entry = gradeMap.get(grade.question_id) ?? {};
      entry[grade.marker] = Number(grade.units);
      gradeMap.set(grade.question_id, entry);
    }
    const result = computePaperResult({
      questions,
      answers: new Map((answersOf.get(row.attempt_id) ?? []).map((answer) => [answer.question_id, answer.value])),
      acceptedLate: new Map(
        (lateOf.get(row.attempt_id) ?? []).map((entry) => [
          entry.question_id,
          { lateAnswerId: entry.id, value: entry.value },
        ]),
      ),
      grades: gradeMap,
      secondMarking: exam.second_marking,
    });
    const json = JSON.stringify(result.questions);
    // jsonb keeps its own key order: compare both sides with their keys sorted.
    const isSame =
      row.version > 0 &&
      row.submission_id === row.current_submission &&
      canonicalJson(row.questions) === canonicalJson(result.questions);
    if (!isSame) changed.push({ row, result, json });
  }
  if (changed.length === 0) return 0;

  const actor = options.actor;
  const staffUserId = actor.type === "staff" ? actor.staffUserId : null;
  // The first version of a result is always "submitted", whatever asked for it (a regrade reaching a paper
  // frozen before results existed, say); later ones carry the caller's cause.
  const causes = changed.map(({ row }) => (row.version === 0 ? "submitted" : options.cause));
  await queryRows(
    sql`INSERT INTO result_versions (id, attempt_id, exam_id, version, submission_id, score_units, max_units, pending,
                                     questions, cause, actor_type, staff_user_id, actor_label, reason)
        SELECT t.id, t.attempt_id, ${options.examId}::uuid, t.version, t.submission_id, t.score_units, t.max_units,
               t.pending, t.questions::jsonb, t.cause, ${actor.type}, ${staffUserId}::uuid, ${actor.label},
               ${options.reason ?? ""}
        FROM unnest(${changed.map(() => randomUUID())}::uuid[], ${changed.map(({ row }) => row.attempt_id)}::uuid[],
                    ${changed.map(({ row }) => row.version + 1)}::int[],
                    ${changed.map(({ row }) => row.current_submission)}::uuid[],
                    ${changed.map(({ result }) => String(result.units))}::bigint[],
                    ${changed.map(({ result }) => String(result.maxUnits))}::bigint[],
                    ${changed.map(({ result }) => result.pending)}::int[],
                    ${changed.map(({ json }) => json)}::text[], ${causes}::text[])
          AS t(id, attempt_id, version, submission_id, score_units, max_units, pending, questions, cause)
        RETURNING id`,
    tx,
  );
  await queryRows(
    sql`UPDATE results r SET version = t.version, submission_id = t.submission_id, score_units = t.score_units,
               max_units = t.max_units, pending = t.pending, questions = t.questions::jsonb, updated_at = clock_timestamp()
        FROM unnest(${changed.map(({ row }) => row.attempt_id)}::uuid[], ${changed.map(({ row }) => row.version + 1)}::int[],
                    ${changed.map(({ row }) => row.current_submission)}::uuid[],
                    ${changed.map(({ result }) => String(result.units))}::bigint[],
                    ${changed.map(({ result }) => String(result.maxUnits))}::bigint[],
                    ${changed.map(({ result }) => result.pending)}::int[], ${changed.map(({ json }) => json)}::text[])
          AS t(attempt_id, version, submission_id, score_units, max_units, pending, questions)
        WHERE r.attempt_id = t.attempt_id
        RETURNING r.attempt_id`,
    tx,
  );
  // A new version of a released result is announced (result.updated), in this transaction (ADR 018). No new
  // version, no statement: most recomputes (a re-score that changes nothing) skip the round trip.
  if (changed.length > 0) {
    await enqueueResultEvents(tx, {
      examId: options.examId,
      eventType: "result.updated",
      attemptIds: changed.map(({ row }) => row.attempt_id),
    });
  }
  return changed.length;
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const list = map.get(key(row));
    if (list) list.push(row);
    else map.set(key(row), [row]);
  }
  return map;
}
