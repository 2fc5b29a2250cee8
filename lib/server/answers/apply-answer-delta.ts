import "server-only";

import type { AnswerValue } from "@/lib/shared/schemas/attempts";

import { queryRows, type RawQueryable } from "../db/sql";
import { fileStatement } from "../db/statement-files";
import { rememberAcceptsUntil } from "../limits/accepts-until";

export type DeltaAnswer = { questionId: string; value: AnswerValue; version: number };

export type ApplyOutcome =
  /** The session given (`sessionHash`) is not valid any more: nothing was applied, nothing else is known. */
  | { isSessionValid: false; isFound: false; isOpen: false }
  /** No attempt with this id (within the enrollment, when one was given): nothing was applied. */
  | { isSessionValid: true; isFound: false; isOpen: false }
  /** The attempt was open: `applied` lists the question ids whose row changed. */
  | { isSessionValid: true; isFound: true; isOpen: true; deadline: Date; revision: number; applied: Set<string> }
  /** The attempt is frozen (submitted) or past deadline + grace: nothing was applied. */
  | { isSessionValid: true; isFound: true; isOpen: false; deadline: Date };

/**
 * Applies a delta with the contract's rule, in ONE statement (docs/sync-protocol.md, "Autosave"), kept in
 * lib/server/db/statements/apply-answer-delta.sql (the benchmark's baseline runs the same file):
 *
 * 0. With `sessionHash` (the autosave of a session this process already knew, route.ts `foldsSessionCheck`):
 *    the session must still be valid and the attempt its enrollment's, or nothing is applied (`isSessionValid`
 *    false: the caller answers 401). The check costs the autosave no round trip of its own.
 * 1. Find the attempt, scoped to `enrollmentId` when given (autosave: someone else's attempt id applies
 *    nothing and is reported as not found), with its deadline for the response (and deadline + grace, which this
 *    process remembers for the submit queue: lib/server/limits/accepts-until.ts).
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
  options: {
    attemptId: string;
    enrollmentId?: string;
    sessionHash?: string | null;
    deviceId: string;
    answers: readonly DeltaAnswer[];
  },
): Promise<ApplyOutcome> {
  const { attemptId, deviceId, answers } = options;
  const enrollmentId = options.enrollmentId ?? null;
  const sessionHash = options.sessionHash ?? null;
  const questionIds = answers.map((answer) => answer.questionId);
  const values = answers.map((answer) => JSON.stringify(answer.value));
  const versions = answers.map((answer) => answer.version);

  // lib/server/db/statements/apply-answer-delta.sql
  const rows = await queryRows<{
    session: number;
    found: number;
    deadline: Date | null;
    accepts_until: Date | null;
    open: number;
    revision: number | null;
    applied: string[];
  }>(
    fileStatement("apply-answer-delta", {
      attemptId,
      enrollmentId,
      sessionHash,
      questionIds,
      values,
      versions,
      deviceId,
    }),
    client,
  );

  const row = rows[0];
  if (!row || row.session === 0) return { isSessionValid: false, isFound: false, isOpen: false };
  if (row.found === 0 || row.deadline === null) return { isSessionValid: true, isFound: false, isOpen: false };
  const deadline = new Date(row.deadline);
  // For the submit queue: when this attempt's submit must be done by (lib/server/limits/accepts-until.ts).
  rememberAcceptsUntil(attemptId, row.accepts_until === null ? null : new Date(row.accepts_until).getTime());
  if (row.open === 0 || row.revision === null) return { isSessionValid: true, isFound: true, isOpen: false, deadline };
  return {
    isSessionValid: true,
    isFound: true,
    isOpen: true,
    deadline,
    revision: row.revision,
    applied: new Set(row.applied),
  };
}
