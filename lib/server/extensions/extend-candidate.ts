import "server-only";

import { randomUUID } from "node:crypto";

import { AppError } from "@/lib/shared/errors";

import { recordAuditEvent } from "../audit/record-audit-event";
import { actorOf } from "../auth/actor";
import { withAttemptLocks } from "../attempts/with-locked-attempt";
import { publishExamChange, publishExamMessage } from "../live/exam-bus";
import { actorLabel, type CandidateTarget, type StaffCaller } from "../proctor/find-candidate-for-staff";

export type CandidateExtension =
  | {
      outcome: "extended";
      extensionId: string;
      enrollmentId: string;
      attemptId: string;
      seconds: number;
      previousDeadline: Date;
      deadline: Date;
      isReplay: boolean;
    }
  | {
      outcome: "pending_start";
      extensionId: string;
      enrollmentId: string;
      attemptId: null;
      seconds: number;
      previousDeadline: null;
      deadline: null;
      isReplay: boolean;
    }
  | { outcome: "already_submitted"; enrollmentId: string; attemptId: string; submissionId: string };

/** What setting a candidate's total extra time did: an extension, or one of two outcomes of its own. */
export type ExtraTimeChange =
  | CandidateExtension
  /** `totalExtraSeconds` was already the candidate's extra time: nothing changed. */
  | { outcome: "unchanged"; enrollmentId: string; attemptId: string | null; extraSeconds: number }
  /** Lowered before the start (no extension row: extensions only add). */
  | { outcome: "lowered"; enrollmentId: string; attemptId: null; extraSeconds: number };

type StoredExtension = {
  id: string;
  attempt_id: string | null;
  seconds: number;
  reason: string;
  previous_deadline: Date | null;
  new_deadline: Date | null;
};

/**
 * Extra time for one candidate (docs/sync-protocol.md, "Proctor actions"). The caller has already checked
 * that `target` is in an exam it may see. In one locked-attempt transaction (with-locked-attempt.ts; a row
 * held past its lock timeout is 409 REQUEST_IN_PROGRESS):
 *
 * 1. Lock the enrollment row (FOR NO KEY UPDATE): extensions of one candidate run one after another, so the same
 *    Idempotency-Key is looked up and written by one of them at a time (the unique
 *    (enrollment_id, request_key) is the backstop), and a start racing us has either committed (we see
 *    its attempt) or waits for us (start-attempt reads extra_seconds under a share lock).
 * 2. The key was used before for this candidate: answer with what it did (a replay), never extend twice.
 * 3. Started: lock the attempt row (what serialises submit, autosave and the auto-submit sweeper; past
 *    deadline + grace but not swept yet, taking the lock auto-submits it, as for submit), then
 *    - submitted → already_submitted;
 *    - running → deadline += seconds in SQL, extra_seconds += seconds, a time_extensions row, an audit event.
 * 4. Not started: extra_seconds += seconds (it counts when they start) and a row with null deadlines.
 *
 * After commit the exam's bus hears of it, and the candidate's page gets a "deadline" signal.
 *
 * An admin editing a candidate's accommodation gives `totalExtraSeconds` instead of `seconds`: the
 * difference from the extra time read under the lock of step 1 is what is added, so two edits never
 * add up to more than either asked. A candidate who has started can only gain time (their deadline never
 * moves earlier: 422); before the start, extra time can also be lowered (no extension row then, only
 * the audit event).
 */
export async function extendCandidate(options: {
  target: CandidateTarget;
  caller: StaffCaller;
  seconds: number;
  reason: string;
  requestKey: string | null;
}): Promise<CandidateExtension> {
  const result = await changeExtraTime(options);
  // A positive number of seconds always extends (or meets a submitted attempt).
  if (result.outcome === "unchanged" || result.outcome === "lowered") throw new Error(`unexpected ${result.outcome}`);
  return result;
}

/** Sets a candidate's total extra time (an admin's accommodation edit): see extendCandidate. */
export async function setCandidateExtraTime(options: {
  target: CandidateTarget;
  caller: StaffCaller;
  totalExtraSeconds: number;
  reason: string;
}): Promise<ExtraTimeChange> {
  return changeExtraTime({ ...options, requestKey: null });
}

async function changeExtraTime(
  options: {
    target: CandidateTarget;
    caller: StaffCaller;
    reason: string;
    requestKey: string | null;
  } & ({ seconds: number; totalExtraSeconds?: never } | { totalExtraSeconds: number; seconds?: never }),
): Promise<ExtraTimeChange> {
  const { target, caller, reason, requestKey } = options;
  let seconds = options.seconds ?? 0;
  const staffUserId = caller.kind === "staff" ? caller.userId : null;
  const by = actorLabel(caller);

  const result = await withAttemptLocks(async ({ tx, lock }): Promise<ExtraTimeChange> => {
    // 1. FOR NO KEY UPDATE, not FOR UPDATE: a submit holding the attempt row key-share-locks this enrollment
    //    through its foreign key when it updates the attempt a second time (docs/sync-protocol.md, "Lock
    //    order"); FOR UPDATE would make it wait for us while we wait for its attempt: a deadlock.
    const locked = await tx.$queryRaw<{ id: string; extra_seconds: number }[]>`
      SELECT id::text AS id, extra_seconds FROM enrollments WHERE id = ${target.enrollmentId}::uuid FOR NO KEY UPDATE`;
    if (!locked[0]) throw new AppError("NOT_FOUND", "No such candidate.");
    if (options.totalExtraSeconds !== undefined) seconds = options.totalExtraSeconds - locked[0].extra_seconds;

    // 2.
    if (requestKey !== null) {
      const stored = await tx.$queryRaw<StoredExtension[]>`
        SELECT id::text AS id, attempt_id::text AS attempt_id, seconds, reason, previous_deadline, new_deadline
        FROM time_extensions WHERE enrollment_id = ${target.enrollmentId}::uuid AND request_key = ${requestKey}`;
      const previous = stored[0];
      if (previous) return replayOf(previous, { enrollmentId: target.enrollmentId, seconds, reason });
    }

    const attempts = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM attempts WHERE enrollment_id = ${target.enrollmentId}::uuid`;
    const attemptId = attempts[0]?.id ?? null;

    let previousDeadline: Date | null = null;
    let deadline: Date | null = null;
    if (attemptId !== null) {
      // 3.
      const attempt = await lock(attemptId);
      if (!attempt) throw new AppError("NOT_FOUND", "No such candidate.");
      if (attempt.status === "submitted" && seconds !== 0) {
        const submission = await tx.submission.findUniqueOrThrow({ where: { attemptId }, select: { id: true } });
        return {
          outcome: "already_submitted",
          enrollmentId: target.enrollmentId,
          attemptId,
          submissionId: submission.id,
        };
      }
      if (seconds === 0) {
        return {
          outcome: "unchanged",
          enrollmentId: target.enrollmentId,
          attemptId,
          extraSeconds: locked[0].extra_seconds,
        };
      }
      if (seconds < 0) {
        throw new AppError(
          "VALIDATION_FAILED",
          "This candidate has started: their extra time can be raised, not lowered (a deadline never moves earlier).",
          { details: { issues: [{ path: "extraSeconds", message: "cannot be lowered after the start" }] } },
        );
      }
      // Moved in SQL, from the value under our lock: two extensions add up, never overwrite each other.
      const moved = await tx.$queryRaw<{ deadline: Date }[]>`
        UPDATE attempts SET deadline = deadline + make_interval(secs => ${seconds}::int)
        WHERE id = ${attemptId}::uuid AND status = 'in_progress'
        RETURNING deadline`;
      deadline = moved[0]!.deadline;
      previousDeadline = new Date(deadline.getTime() - seconds * 1000);
    }

    // 3. and 4.
    if (seconds === 0) {
      return {
        outcome: "unchanged",
        enrollmentId: target.enrollmentId,
        attemptId,
        extraSeconds: locked[0].extra_seconds,
      };
    }
    await tx.$executeRaw`
      UPDATE enrollments SET extra_seconds = extra_seconds + ${seconds}::int WHERE id = ${target.enrollmentId}::uuid`;
    if (seconds < 0) {
      await recordAuditEvent(
        {
          actor: actorOf(caller),
          action: "enrollment.extra_time_lowered",
          examId: target.examId,
          enrollmentId: target.enrollmentId,
          data: { by, seconds, extraSeconds: locked[0].extra_seconds + seconds },
        },
        tx,
      );
      return {
        outcome: "lowered",
        enrollmentId: target.enrollmentId,
        attemptId: null,
        extraSeconds: locked[0].extra_seconds + seconds,
      };
    }
    const extensionId = randomUUID();
    await tx.$executeRaw`
      INSERT INTO time_extensions (id, exam_id, enrollment_id, attempt_id, seconds, reason, staff_user_id, actor_label,
                                   request_key, previous_deadline, new_deadline)
      VALUES (${extensionId}::uuid, ${target.examId}::uuid, ${target.enrollmentId}::uuid, ${attemptId}::uuid, ${seconds}::int,
              ${reason}, ${staffUserId}::uuid, ${by}, ${requestKey}, ${previousDeadline}, ${deadline})`;
    await recordAuditEvent(
      {
        actor: actorOf(caller),
        action: "attempt.extended",
        examId: target.examId,
        enrollmentId: target.enrollmentId,
        ...(attemptId ? { attemptId } : {}),
        data: {
          extensionId,
          by,
          seconds,
          reason,
          previousDeadline: previousDeadline?.toISOString() ?? null,
          deadline: deadline?.toISOString() ?? null,
          pendingStart: attemptId === null,
        },
      },
      tx,
    );
    if (attemptId === null) {
      return {
        outcome: "pending_start",
        extensionId,
        enrollmentId: target.enrollmentId,
        attemptId: null,
        seconds,
        previousDeadline: null,
        deadline: null,
        isReplay: false,
      };
    }
    return {
      outcome: "extended",
      extensionId,
      enrollmentId: target.enrollmentId,
      attemptId,
      seconds,
      previousDeadline: previousDeadline!,
      deadline: deadline!,
      isReplay: false,
    };
  });

  if (result.outcome === "lowered") publishExamChange(target.examId, target.enrollmentId, "extended");
  if ((result.outcome === "extended" || result.outcome === "pending_start") && !result.isReplay) {
    publishExamChange(target.examId, target.enrollmentId, "extended");
    if (result.attemptId !== null) {
      publishExamMessage({ type: "signal", examId: target.examId, attemptId: result.attemptId, signal: "deadline" });
    }
  }
  return result;
}

/** Step 2: the stored extension for this key. Another body under the same key is refused, as for submit. */
function replayOf(
  stored: StoredExtension,
  request: { enrollmentId: string; seconds: number; reason: string },
): CandidateExtension {
  if (stored.seconds !== request.seconds || stored.reason !== request.reason) {
    throw new AppError(
      "IDEMPOTENCY_KEY_REUSED",
      "This Idempotency-Key was already used with a different request body.",
    );
  }
  if (stored.attempt_id === null || stored.new_deadline === null || stored.previous_deadline === null) {
    return {
      outcome: "pending_start",
      extensionId: stored.id,
      enrollmentId: request.enrollmentId,
      attemptId: null,
      seconds: stored.seconds,
      previousDeadline: null,
      deadline: null,
      isReplay: true,
    };
  }
  return {
    outcome: "extended",
    extensionId: stored.id,
    enrollmentId: request.enrollmentId,
    attemptId: stored.attempt_id,
    seconds: stored.seconds,
    previousDeadline: stored.previous_deadline,
    deadline: stored.new_deadline,
    isReplay: true,
  };
}
