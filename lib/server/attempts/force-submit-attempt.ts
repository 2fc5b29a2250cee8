import "server-only";

import { AppError } from "@/lib/shared/errors";
import { ForceSubmitSchema, type ForceSubmitResponse } from "@/lib/shared/schemas/proctor-actions";

import { recordAuditEvent } from "../audit/record-audit-event";
import { actorOf } from "../auth/actor";
import { db } from "../db/client";
import { validationError } from "../http/errors";
import { isLockTimeout } from "../db/errors";
import { publishAttemptSubmitted } from "../live/exam-bus";
import { actorLabel, findCandidateForStaff, type StaffCaller } from "../proctor/find-candidate-for-staff";
import { freezeAttempt } from "./freeze-attempt";
import { lockAttemptRow } from "./lock-attempt-row";

/**
 * A proctor submits on the candidate's behalf with what the server holds (docs/sync-protocol.md, "Proctor
 * actions"). Same guarantees as the candidate's submit, through the same two pieces: the attempt row locked
 * FOR UPDATE (lockAttemptRow) and the conditional freeze with its unique submission (freezeAttempt).
 *
 * 1. Scope: the attempt must be in an exam the caller may see, else 404 (whatever the body). Then the body
 *    (`ForceSubmitSchema`, else 422). An enrollment id of a candidate who has not started is 409 NOT_STARTED.
 * 2. In one transaction: lock the row. Already submitted (by anyone) → that submission, `alreadySubmitted:
 *    true`, nothing written (no audit row: nothing happened). Past deadline + grace → frozen as the
 *    auto-submit it already was due to be (source `auto`), also `alreadySubmitted: true`. Otherwise frozen
 *    with source `proctor`, audited `attempt.force_submitted` with who and why.
 * 3. After commit: the dashboard's bus and the candidate's page ("submitted" signal) hear of it.
 */
export async function forceSubmitAttempt(options: {
  id: string;
  caller: StaffCaller;
  /** The request's JSON body ({} when it had none). */
  body: unknown;
}): Promise<ForceSubmitResponse> {
  const { caller } = options;

  // 1.
  const target = await findCandidateForStaff({ id: options.id, caller });
  if (!target) throw new AppError("NOT_FOUND", "No such attempt.");
  const parsed = ForceSubmitSchema.safeParse(options.body);
  if (!parsed.success) throw validationError(parsed.error);
  const reason = parsed.data.reason ?? null;
  const attemptId = target.attemptId;
  if (attemptId === null) throw new AppError("NOT_STARTED", "This candidate has not started the exam; there is nothing to submit.");

  // 2.
  let outcome: { kind: "created" | "existing"; response: ForceSubmitResponse };
  try {
    outcome = await db.$transaction(
      async (tx) => {
        await tx.$executeRaw`SET LOCAL lock_timeout = '3s'`;
        const row = await lockAttemptRow(tx, attemptId);
        if (!row) throw new AppError("NOT_FOUND", "No such attempt.");
        if (row.status === "in_progress") {
          const isOverdue = row.isOverdue;
          const frozen = await freezeAttempt(tx, isOverdue ? { attemptId, source: "auto" } : { attemptId, source: "proctor", actor: actorOf(caller) });
          if (!frozen) throw new Error(`attempt ${attemptId} frozen while its row was locked`);
          const response = { submissionId: frozen.submissionId, submittedAt: frozen.submittedAt, digest: frozen.digest, source: frozen.source };
          if (isOverdue) return { kind: "created" as const, response: { ...response, alreadySubmitted: true } };
          await recordAuditEvent(
            {
              actor: actorOf(caller),
              action: "attempt.force_submitted",
              examId: target.examId,
              enrollmentId: target.enrollmentId,
              attemptId,
              data: { submissionId: frozen.submissionId, by: actorLabel(caller), reason, digest: frozen.digest },
            },
            tx,
          );
          return { kind: "created" as const, response: { ...response, alreadySubmitted: false } };
        }
        const submission = await tx.submission.findUniqueOrThrow({
          where: { attemptId },
          select: { id: true, submittedAt: true, digest: true, source: true },
        });
        return {
          kind: "existing" as const,
          response: {
            submissionId: submission.id,
            submittedAt: submission.submittedAt.toISOString(),
            digest: submission.digest,
            source: submission.source,
            alreadySubmitted: true,
          },
        };
      },
      { maxWait: 5_000, timeout: 15_000 },
    );
  } catch (error) {
    if (isLockTimeout(error)) {
      throw new AppError("REQUEST_IN_PROGRESS", "The candidate's attempt is busy. It is safe to retry.", { headers: { "Retry-After": "1" } });
    }
    throw error;
  }

  // 3.
  if (outcome.kind === "created") {
    publishAttemptSubmitted({ examId: target.examId, enrollmentId: target.enrollmentId, attemptId });
  }
  return outcome.response;
}
