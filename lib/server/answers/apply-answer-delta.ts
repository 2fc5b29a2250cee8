import "server-only";

import type { AnswerValue } from "@/lib/shared/schemas/attempts";

import { prepared, queryRows, sql, type RawQueryable } from "../db/sql";

export type DeltaAnswer = { questionId: string; value: AnswerValue; version: number };

export type ApplyOutcome =
  /** No attempt with this id (within the enrollment, when one was given): nothing was applied. */
  | { isFound: false; isOpen: false }
  /** The attempt was open: `applied` lists the question ids whose row changed. */
  | { isFound: true; isOpen: true; deadline: Date; revision: number; applied: Set<string> }
  /** The attempt is frozen (submitted) or past deadline + grace: nothing was applied. */
  | { isFound: true; isOpen: false; deadline: Date };

/**
 * Applies a delta with the contract's rule, in ONE statement (docs/sync-protocol.md, "Autosave"):
 *
 * 1. Find the attempt, scoped to `enrollmentId` when given (autosave: someone else's attempt id applies
 *    nothing and is reported as not found), with its deadline for the response.
 * 2. Lock the attempt row (FOR UPDATE), and only if it is still open: in progress and before
 *    deadline + grace by the database's clock. A submit holds the same lock while it freezes the paper,
 *    so an autosave racing a submit either lands before the freeze or not at all.
 * 3. Upsert every answer; ON CONFLICT overwrites the stored row only WHERE the incoming
 *    (version, deviceId) is greater than the stored one. Prisma's upsert cannot express this guard and
 *    would read-then-write in JavaScript, which races; this is why it is raw SQL.
 * 4. Bump the attempt's revision once if anything was applied.
 *
 * Device ids compare byte-wise (COLLATE "C"), the same order as JavaScript's `<` on the ASCII ids the
 * contract allows, so client and server agree on every tie; the database's locale never decides.
 * Values travel as JSON text and are cast to jsonb in SQL.
 *
 * Without `client` it runs on the pool directly (autosave: one round trip, no Prisma pipeline); with a
 * transaction client (submit, emergency import), inside that transaction.
 */
export async function applyAnswerDelta(
  client: RawQueryable | undefined,
  options: { attemptId: string; enrollmentId?: string; deviceId: string; answers: readonly DeltaAnswer[] },
): Promise<ApplyOutcome> {
  const { attemptId, deviceId, answers } = options;
  const enrollmentId = options.enrollmentId ?? null;
  const questionIds = answers.map((answer) => answer.questionId);
  const values = answers.map((answer) => JSON.stringify(answer.value));
  const versions = answers.map((answer) => answer.version);

  const rows = await queryRows<{ found: number; deadline: Date | null; open: number; revision: number | null; applied: string[] }>(
    prepared(
      "apply-answer-delta",
      sql`
    WITH target AS (
      SELECT a.id, a.deadline
      FROM attempts a
      WHERE a.id = ${attemptId}::uuid AND (${enrollmentId}::uuid IS NULL OR a.enrollment_id = ${enrollmentId}::uuid)
    ),
    att AS (
      SELECT a.id, a.revision
      FROM attempts a JOIN exams e ON e.id = a.exam_id
      WHERE a.id = (SELECT id FROM target)
        AND a.status = 'in_progress'
        AND clock_timestamp() <= a.deadline + make_interval(secs => e.grace_seconds)
      FOR UPDATE OF a
    ),
    input AS (
      SELECT * FROM unnest(${questionIds}::uuid[], ${values}::text[], ${versions}::int[]) AS t(question_id, value, version)
    ),
    upserted AS (
      INSERT INTO answers (id, attempt_id, question_id, value, version, device_id, saved_at)
      SELECT gen_random_uuid(), att.id, input.question_id, input.value::jsonb, input.version, ${deviceId}, clock_timestamp()
      FROM input CROSS JOIN att
      ON CONFLICT (attempt_id, question_id) DO UPDATE
        SET value = EXCLUDED.value, version = EXCLUDED.version, device_id = EXCLUDED.device_id, saved_at = EXCLUDED.saved_at
        WHERE (answers.version, answers.device_id COLLATE "C") < (EXCLUDED.version, EXCLUDED.device_id COLLATE "C")
      RETURNING question_id
    ),
    bumped AS (
      UPDATE attempts SET revision = attempts.revision + 1
      FROM att
      WHERE attempts.id = att.id AND EXISTS (SELECT 1 FROM upserted)
      RETURNING attempts.revision
    )
    SELECT
      (SELECT count(*) FROM target)::int AS found,
      (SELECT deadline FROM target) AS deadline,
      (SELECT count(*) FROM att)::int AS open,
      COALESCE((SELECT revision FROM bumped), (SELECT revision FROM att)) AS revision,
      COALESCE((SELECT array_agg(question_id::text) FROM upserted), ARRAY[]::text[]) AS applied`,
    ),
    client,
  );

  const row = rows[0];
  if (!row || row.found === 0 || row.deadline === null) return { isFound: false, isOpen: false };
  const deadline = new Date(row.deadline);
  if (row.open === 0 || row.revision === null) return { isFound: true, isOpen: false, deadline };
  return { isFound: true, isOpen: true, deadline, revision: row.revision, applied: new Set(row.applied) };
}
