import "server-only";

import { randomUUID } from "node:crypto";

import { AppError, validationError } from "@/lib/shared/errors";
import { PauseSchema, ResumeSchema, type PauseResponse } from "@/lib/shared/schemas/pauses";

import { recordAuditEvent } from "../audit/record-audit-event";
import { actorOf } from "../auth/actor";
import { withAttemptLocks, type AttemptLocks, type LockedAttempt } from "../attempts/with-locked-attempt";
import type { Prisma } from "../db/client";
import { lockExamForKeyShare } from "../exams/lock-exam-for-key-share";
import { publishExamChange, publishExamMessage } from "../live/exam-bus";
import { findWatchedExam } from "../proctor/find-watched-exam";
import { actorLabel, type StaffCaller } from "../proctor/find-candidate-for-staff";

type Tx = Prisma.TransactionClient;
type Action = PauseResponse["action"];

/** The request as stored in exam_pauses and compared for a retry under the same Idempotency-Key. */
type PauseRequest = { action: Action; reason: string | null; enrollmentIds: string[] | null };

type Outcome = { response: PauseResponse; isReplay: boolean };

/** The attempts a pause or resume changed, told to the bus after commit. */
type Changed = { attemptId: string; enrollmentId: string };

/**
 * Whole-exam and selection pauses run a few seconds at most (one row lock per running attempt); more than
 * the default 15 s for an exam of thousands of candidates.
 */
const TIMEOUT_MS = 60_000;

/**
 * `POST /api/proctor/exams/{examId}/pause`: stops the clock of every running attempt of the exam, or of the
 * candidates named by `enrollmentIds` (docs/sync-protocol.md, "Pause and resume"; ADR 016).
 */
export async function pauseExam(options: {
  examId: string;
  caller: StaffCaller;
  body: unknown;
  requestKey: string | null;
}): Promise<Outcome> {
  await requireWatchedExam(options);
  const parsed = PauseSchema.safeParse(options.body);
  if (!parsed.success) throw validationError(parsed.error);
  return changePause({
    ...options,
    request: { action: "pause", reason: parsed.data.reason, enrollmentIds: normalise(parsed.data.enrollmentIds) },
  });
}

/**
 * `POST /api/proctor/exams/{examId}/resume`: gives every paused attempt in scope exactly the time it was
 * paused, and ends a whole-exam pause.
 */
export async function resumeExam(options: {
  examId: string;
  caller: StaffCaller;
  body: unknown;
  requestKey: string | null;
}): Promise<Outcome> {
  await requireWatchedExam(options);
  const parsed = ResumeSchema.safeParse(options.body);
  if (!parsed.success) throw validationError(parsed.error);
  return changePause({
    ...options,
    request: { action: "resume", reason: null, enrollmentIds: normalise(parsed.data.enrollmentIds) },
  });
}

/** The exam must be one the caller may watch (else 404, whatever the body). */
async function requireWatchedExam(options: { examId: string; caller: StaffCaller }): Promise<void> {
  if (!(await findWatchedExam({ examId: options.examId, principal: options.caller }))) {
    throw new AppError("NOT_FOUND", "No such exam.");
  }
}

/** Sorted and without duplicates, so the same selection in another order is the same request. */
function normalise(ids: readonly string[] | undefined): string[] | null {
  return ids ? [...new Set(ids.map((id) => id.toLowerCase()))].sort() : null;
}

/**
 * Pause or resume, in one locked-attempt transaction (with-locked-attempt.ts):
 *
 * 1. Lock the exam first (the lock order: exam → enrollment → attempt). A whole-exam action takes it FOR NO KEY
 *    UPDATE: it writes exams.paused_at, and a start (start-attempt.ts, FOR SHARE) waits for it, so a candidate
 *    who starts meanwhile sees the pause as committed. A selection takes it FOR KEY SHARE, like any writer below
 *    the exam.
 * 2. With an Idempotency-Key, claim it: insert this request's exam_pauses row first. The unique
 *    (exam_id, request_key) makes a parallel request with the same key wait for ours to commit and then find
 *    the row: the same body replays our stored response, another body is 422. Nothing else is written twice.
 * 3. A selection's ids must all be candidates of this exam (422, nothing changed).
 * 4. Lock each attempt in scope, in id order (pause: running and not paused; resume: paused). Taking the lock
 *    auto-submits one that is overdue, as everywhere; a paused attempt is never overdue.
 * 5. One instant from the database's clock, taken once every lock is held, is the pause's (resume's) time for
 *    every attempt: pause sets paused_at to it; resume moves each deadline by (instant − paused_at) in SQL,
 *    to the millisecond, not capped by the exam's closing time (ADR 016). An attempt whose deadline + grace
 *    passed while the pause waited for other rows was out of time at the instant: it is auto-submitted, as the
 *    sweeper would have, never paused with no time left. A whole-exam action sets or clears exams.paused_at.
 * 6. The exam_pauses row gets the instant, the count and the response; the audit event is recorded.
 *
 * After commit, each changed attempt's page gets a "paused" or "resumed" signal and dashboards reload it.
 */
async function changePause(options: {
  examId: string;
  caller: StaffCaller;
  requestKey: string | null;
  request: PauseRequest;
}): Promise<Outcome> {
  const { examId, caller, requestKey, request } = options;
  const changed: Changed[] = [];
  const outcome = await withAttemptLocks(
    async (locks): Promise<Outcome> => {
      const { tx } = locks;
      // 1.
      if (request.enrollmentIds === null) {
        const exam = await tx.$queryRaw<{ id: string }[]>`
          SELECT id::text AS id FROM exams WHERE id = ${examId}::uuid FOR NO KEY UPDATE`;
        if (!exam[0]) throw new AppError("NOT_FOUND", "No such exam.");
      } else {
        await lockExamForKeyShare(tx, examId);
      }

      // 2.
      const pauseId = randomUUID();
      if (requestKey !== null) {
        const claimed = await insertPauseRow(tx, { pauseId, examId, caller, requestKey, request });
        if (!claimed) return { response: await replay(tx, { examId, requestKey, request }), isReplay: true };
      }

      // 3.
      if (request.enrollmentIds !== null) await requireCandidatesOfExam(tx, examId, request.enrollmentIds);

      // 4.
      const inScope = await tx.$queryRaw<{ id: string }[]>`
        SELECT id::text AS id FROM attempts
        WHERE exam_id = ${examId}::uuid AND status = 'in_progress'
          AND (paused_at IS NULL) = ${request.action === "pause"}
          AND (${request.enrollmentIds}::uuid[] IS NULL OR enrollment_id = ANY(${request.enrollmentIds}::uuid[]))
        ORDER BY id`;
      const locked = await lockRunning(locks, inScope);

      // 5.
      const [clock] = await tx.$queryRaw<{ at: Date }[]>`SELECT clock_timestamp()::timestamptz(3) AS at`;
      const at = clock!.at;
      const ids = await pausable(tx, locked, at, request.action);
      const rows =
        request.action === "pause"
          ? await tx.$queryRaw<{ id: string; enrollment_id: string }[]>`
              UPDATE attempts SET paused_at = ${at}, pause_reason = ${request.reason}
              WHERE id = ANY(${ids}::uuid[]) AND status = 'in_progress' AND paused_at IS NULL
              RETURNING id::text AS id, enrollment_id::text AS enrollment_id`
          : await tx.$queryRaw<{ id: string; enrollment_id: string }[]>`
              UPDATE attempts SET deadline = deadline + (${at}::timestamptz - paused_at), paused_at = NULL,
                                  pause_reason = NULL
              WHERE id = ANY(${ids}::uuid[]) AND status = 'in_progress' AND paused_at IS NOT NULL
              RETURNING id::text AS id, enrollment_id::text AS enrollment_id`;
      for (const row of rows) changed.push({ attemptId: row.id, enrollmentId: row.enrollment_id });
      if (request.enrollmentIds === null) {
        // An exam already paused keeps its first pause's time and reason.
        if (request.action === "pause") {
          await tx.$executeRaw`
            UPDATE exams SET paused_at = ${at}, pause_reason = ${request.reason}
            WHERE id = ${examId}::uuid AND paused_at IS NULL`;
        } else {
          await tx.$executeRaw`UPDATE exams SET paused_at = NULL, pause_reason = NULL WHERE id = ${examId}::uuid`;
        }
      }

      // 6.
      const response: PauseResponse =
        request.action === "pause"
          ? { action: "pause", pausedAt: at.toISOString(), attempts: rows.length, enrollmentIds: request.enrollmentIds }
          : {
              action: "resume",
              resumedAt: at.toISOString(),
              attempts: rows.length,
              enrollmentIds: request.enrollmentIds,
            };
      if (requestKey === null) await insertPauseRow(tx, { pauseId, examId, caller, requestKey, request });
      await tx.$executeRaw`
        UPDATE exam_pauses SET at = ${at}, affected = ${rows.length}::int, response = ${JSON.stringify(response)}
        WHERE id = ${pauseId}::uuid`;
      await recordAuditEvent(
        {
          actor: actorOf(caller),
          action: request.action === "pause" ? "exam.paused" : "exam.resumed",
          examId,
          data: {
            pauseId,
            by: actorLabel(caller),
            reason: request.reason,
            scope: request.enrollmentIds === null ? "exam" : "selection",
            enrollmentIds: request.enrollmentIds,
            attempts: rows.length,
            at: at.toISOString(),
          },
        },
        tx,
      );
      return { response, isReplay: false };
    },
    { timeoutMs: TIMEOUT_MS },
  );

  for (const attempt of changed) {
    publishExamChange(examId, attempt.enrollmentId, request.action === "pause" ? "paused" : "resumed");
    publishExamMessage({
      type: "signal",
      examId,
      attemptId: attempt.attemptId,
      signal: request.action === "pause" ? "paused" : "resumed",
    });
  }
  return outcome;
}

/** Step 4: the attempts still running once locked (an overdue one was just auto-submitted by its lock). */
async function lockRunning(locks: AttemptLocks, attempts: readonly { id: string }[]): Promise<LockedAttempt[]> {
  const running: LockedAttempt[] = [];
  for (const { id } of attempts) {
    const attempt = await locks.lock(id);
    if (attempt && attempt.status === "in_progress") running.push(attempt);
  }
  return running;
}

/**
 * Step 5: the locked attempts the action applies to at `at`. For a pause, one already past deadline + grace
 * at that instant (it became so while the pause waited for another row) is auto-submitted instead.
 */
async function pausable(tx: Tx, locked: readonly LockedAttempt[], at: Date, action: Action): Promise<string[]> {
  const ids = locked.map((attempt) => attempt.id);
  if (action === "resume" || ids.length === 0) return ids;
  const overdue = await tx.$queryRaw<{ id: string }[]>`
    SELECT a.id::text AS id FROM attempts a JOIN exams e ON e.id = a.exam_id
    WHERE a.id = ANY(${ids}::uuid[]) AND a.deadline + make_interval(secs => e.grace_seconds) < ${at}::timestamptz`;
  const late = new Set(overdue.map((row) => row.id));
  for (const attempt of locked) if (late.has(attempt.id)) await attempt.freeze({ source: "auto" });
  return ids.filter((id) => !late.has(id));
}

/**
 * This request's exam_pauses row, its time for now the transaction's clock (step 6 sets the real one). With a
 * key: false when the key was already used for this exam (ON CONFLICT waits for a parallel holder to commit).
 */
async function insertPauseRow(
  tx: Tx,
  options: { pauseId: string; examId: string; caller: StaffCaller; requestKey: string | null; request: PauseRequest },
): Promise<boolean> {
  const { pauseId, examId, caller, requestKey, request } = options;
  const staffUserId = caller.kind === "staff" ? caller.userId : null;
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO exam_pauses (id, exam_id, action, enrollment_ids, reason, staff_user_id, actor_label, request_key, at)
    VALUES (${pauseId}::uuid, ${examId}::uuid, ${request.action}, ${request.enrollmentIds}::uuid[], ${request.reason},
            ${staffUserId}::uuid, ${actorLabel(caller)}, ${requestKey}, clock_timestamp())
    ON CONFLICT (exam_id, request_key) DO NOTHING
    RETURNING id::text AS id`;
  return inserted.length === 1;
}

/** Step 2: the stored response for this key, if the request is the same one. */
async function replay(
  tx: Tx,
  options: { examId: string; requestKey: string; request: PauseRequest },
): Promise<PauseResponse> {
  const { examId, requestKey, request } = options;
  const stored = await tx.$queryRaw<
    { action: string; reason: string | null; enrollment_ids: string[] | null; response: string | null }[]
  >`
    SELECT action, reason, enrollment_ids::text[] AS enrollment_ids, response
    FROM exam_pauses WHERE exam_id = ${examId}::uuid AND request_key = ${requestKey}`;
  const row = stored[0];
  const isSame =
    row !== undefined &&
    row.action === request.action &&
    row.reason === request.reason &&
    JSON.stringify(row.enrollment_ids) === JSON.stringify(request.enrollmentIds);
  if (!isSame || row.response === null) {
    throw new AppError(
      "IDEMPOTENCY_KEY_REUSED",
      "This Idempotency-Key was already used with a different request body.",
    );
  }
  return JSON.parse(row.response) as PauseResponse;
}

/** Step 3. */
async function requireCandidatesOfExam(tx: Tx, examId: string, enrollmentIds: readonly string[]): Promise<void> {
  const found = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM enrollments WHERE exam_id = ${examId}::uuid AND id = ANY(${enrollmentIds}::uuid[])`;
  if (found.length === enrollmentIds.length) return;
  const known = new Set(found.map((row) => row.id));
  const unknown = enrollmentIds.filter((id) => !known.has(id));
  throw new AppError("VALIDATION_FAILED", "Some enrollment ids are not candidates of this exam.", {
    details: { issues: [{ path: "enrollmentIds", message: `not candidates of this exam: ${unknown.join(", ")}` }] },
  });
}
