import "server-only";

import { randomUUID } from "node:crypto";

import { AppError, validationError } from "@/lib/shared/errors";
import { ReopenSchema, type ReopenResponse } from "@/lib/shared/schemas/reopen";

import { recordAuditEvent } from "../audit/record-audit-event";
import { actorOf } from "../auth/actor";
import { db } from "../db/client";
import { lockExamForKeyShare } from "../exams/lock-exam-for-key-share";
import { publishAttemptReopened } from "../live/exam-bus";
import { actorLabel, type StaffCaller } from "../proctor/find-candidate-for-staff";
import { findReopenWindow } from "./find-reopen-window";
import { withAttemptLocks } from "./with-locked-attempt";

type StoredReopening = { seconds: number; reason: string; response: string };

/**
 * An admin reopens a submitted attempt (docs/admin-api.md, "Reopening a submitted attempt"; ADR 017): the
 * paper is unfrozen with new time, the submission and its receipt stay recorded in submission_history, and
 * the next submit (any source) becomes version + 1 (freeze-attempt.ts).
 *
 * 1. The attempt (404 when there is none), then the body (`ReopenSchema`, else 422).
 * 2. One locked-attempt transaction, in the lock order: the exam FOR KEY SHARE, then the attempt's row
 *    (with-locked-attempt.ts; an overdue attempt in progress is auto-submitted by taking it, and can then be
 *    reopened like any other).
 * 3. The Idempotency-Key was used for this attempt: the stored response (a replay), never a second reopening.
 *    Looked up under the row lock, so parallel requests with one key reopen once; the unique
 *    (attempt_id, request_key) is the backstop.
 * 4. Not submitted → 409 NOT_SUBMITTED (also the loser of two reopens with different keys). The exam outside
 *    its window (not published, or closes_at passed by the database's clock) → 409 EXAM_CLOSED.
 * 5. The submission moves to submission_history in one statement (the row is deleted from submissions and
 *    inserted there together: never lost, never in both), with the frozen paper its digest covers (`paper`: the
 *    answers as they are now, before the candidate edits them again), the attempt goes back to in_progress with deadline
 *    least(clock_timestamp() + seconds, closes_at), and the reopening and its audit event are written, all in
 *    this transaction. Late answers stay where they are: reopening does not apply them (staff decide).
 * 6. After commit the dashboard reloads the candidate and the candidate's pages get a "reopened" signal.
 */
export async function reopenAttempt(options: {
  attemptId: string;
  caller: StaffCaller;
  /** The request's JSON body. */
  body: unknown;
  requestKey: string | null;
}): Promise<{ response: ReopenResponse; isReplay: boolean }> {
  const { attemptId, caller, requestKey } = options;

  // 1.
  const found = await db.attempt.findUnique({ where: { id: attemptId }, select: { examId: true, enrollmentId: true } });
  if (!found) throw new AppError("NOT_FOUND", "No such attempt.");
  const parsed = ReopenSchema.safeParse(options.body);
  if (!parsed.success) throw validationError(parsed.error);
  const { seconds, reason } = parsed.data;
  const by = actorLabel(caller);

  const result = await withAttemptLocks(async ({ tx, lock }) => {
    // 2.
    await lockExamForKeyShare(tx, found.examId);
    const attempt = await lock(attemptId);
    if (!attempt) throw new AppError("NOT_FOUND", "No such attempt.");

    // 3.
    if (requestKey !== null) {
      const stored = await tx.$queryRaw<StoredReopening[]>`
        SELECT seconds, reason, response FROM attempt_reopenings
        WHERE attempt_id = ${attemptId}::uuid AND request_key = ${requestKey}`;
      const previous = stored[0];
      if (previous) {
        if (previous.seconds !== seconds || previous.reason !== reason) {
          throw new AppError(
            "IDEMPOTENCY_KEY_REUSED",
            "This Idempotency-Key was already used with a different request body.",
          );
        }
        return { response: JSON.parse(previous.response) as ReopenResponse, isReplay: true };
      }
    }

    // 4.
    if (attempt.status !== "submitted") {
      throw new AppError("NOT_SUBMITTED", "This attempt is not submitted, so there is nothing to reopen.");
    }
    const window = await findReopenWindow({ examId: found.examId }, tx);
    if (!window.isOpen) {
      throw new AppError(
        "EXAM_CLOSED",
        window.reason === "status"
          ? `The exam is ${window.examStatus}: an attempt can only be reopened while the exam is published and open.`
          : "The exam's window has closed: an attempt can only be reopened before closesAt.",
        { details: { reason: window.reason, examStatus: window.examStatus, closesAt: window.closesAt } },
      );
    }

    // 5.
    const reopeningId = randomUUID();
    const moved = await tx.$queryRaw<{ id: string; version: number }[]>`
      WITH moved AS (
        DELETE FROM submissions WHERE attempt_id = ${attemptId}::uuid
        RETURNING id, attempt_id, version, idempotency_key, request_hash, digest, client_digest, receipt, source,
                  submitted_at, response
      )
      INSERT INTO submission_history (id, attempt_id, version, idempotency_key, request_hash, digest, client_digest,
                                      receipt, source, submitted_at, response, superseded_at, reopening_id, paper)
      SELECT id, attempt_id, version, idempotency_key, request_hash, digest, client_digest, receipt, source,
             submitted_at, response, clock_timestamp(), ${reopeningId}::uuid,
             (SELECT coalesce(jsonb_object_agg(question_id::text, value), '{}'::jsonb)
              FROM answers WHERE attempt_id = ${attemptId}::uuid)
      FROM moved
      RETURNING id::text AS id, version`;
    const superseded = moved[0];
    // The row lock is held and the attempt is submitted: its one submission is there.
    if (!superseded) throw new Error(`attempt ${attemptId} is submitted but has no submission`);
    // least() skips a null closes_at: an exam without one gives the whole time.
    const reopened = await tx.$queryRaw<{ previous_deadline: Date; deadline: Date }[]>`
      UPDATE attempts a
      SET status = 'in_progress',
          deadline = least(clock_timestamp() + make_interval(secs => ${seconds}::int), e.closes_at)
      FROM exams e, (SELECT deadline FROM attempts WHERE id = ${attemptId}::uuid) previous
      WHERE a.id = ${attemptId}::uuid AND e.id = a.exam_id AND a.status = 'submitted'
      RETURNING previous.deadline AS previous_deadline, a.deadline`;
    const times = reopened[0]!;
    const response: ReopenResponse = {
      reopeningId,
      attemptId,
      supersededSubmissionId: superseded.id,
      supersededVersion: superseded.version,
      seconds,
      reason,
      previousDeadline: times.previous_deadline.toISOString(),
      deadline: times.deadline.toISOString(),
      status: "in_progress",
    };
    const staffUserId = caller.kind === "staff" ? caller.userId : null;
    await tx.$executeRaw`
      INSERT INTO attempt_reopenings (id, attempt_id, exam_id, superseded_submission_id, version, reason, seconds,
                                      previous_deadline, new_deadline, staff_user_id, actor_label, request_key, response)
      VALUES (${reopeningId}::uuid, ${attemptId}::uuid, ${found.examId}::uuid, ${superseded.id}::uuid,
              ${superseded.version}::int, ${reason}, ${seconds}::int, ${times.previous_deadline}, ${times.deadline},
              ${staffUserId}::uuid, ${by}, ${requestKey}, ${JSON.stringify(response)})`;
    await recordAuditEvent(
      {
        actor: actorOf(caller),
        action: "attempt.reopened",
        examId: found.examId,
        enrollmentId: found.enrollmentId,
        attemptId,
        data: {
          reopeningId,
          by,
          reason,
          seconds,
          minutes: Math.round(seconds / 60),
          supersededSubmissionId: superseded.id,
          supersededVersion: superseded.version,
          previousDeadline: response.previousDeadline,
          deadline: response.deadline,
        },
      },
      tx,
    );
    return { response, isReplay: false };
  });

  // 6.
  if (!result.isReplay) publishAttemptReopened({ examId: found.examId, enrollmentId: found.enrollmentId, attemptId });
  return result;
}
