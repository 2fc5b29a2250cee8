import "server-only";

import { AppError, validationError } from "@/lib/shared/errors";
import { ForceSubmitSchema, type ForceSubmitResponse } from "@/lib/shared/schemas/proctor-actions";

import { recordAuditEvent } from "../audit/record-audit-event";
import { actorOf } from "../auth/actor";
import { actorLabel, findCandidateForStaff, type StaffCaller } from "../proctor/find-candidate-for-staff";
import { withLockedAttempt } from "./with-locked-attempt";

/**
 * A proctor submits on the candidate's behalf with what the server holds (docs/sync-protocol.md, "Proctor
 * actions"). Same guarantees as the candidate's submit, through the same transaction (withLockedAttempt: the
 * attempt row locked FOR UPDATE, then the conditional freeze with its unique submission).
 *
 * 1. Scope: the attempt must be in an exam the caller may see, else 404 (whatever the body). Then the body
 *    (`ForceSubmitSchema`, else 422). An enrollment id of a candidate who has not started is 409 NOT_STARTED.
 * 2. Under the attempt's row lock. Already submitted (by anyone) → that submission, `alreadySubmitted:
 *    true`, nothing written (no audit row: nothing happened). Past deadline + grace → frozen by the lock as
 *    the auto-submit it already was due to be (source `auto`), also `alreadySubmitted: true`. Otherwise
 *    frozen with source `proctor`, audited `attempt.force_submitted` with who and why. After commit the
 *    dashboard's bus and the candidate's page ("submitted" signal) hear of a freeze.
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
  if (attemptId === null)
    throw new AppError("NOT_STARTED", "This candidate has not started the exam; there is nothing to submit.");

  // 2.
  return withLockedAttempt(attemptId, async (tx, attempt) => {
    if (attempt.status === "in_progress") {
      const frozen = await attempt.freeze({ source: "proctor", actor: actorOf(caller) });
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
      return {
        submissionId: frozen.submissionId,
        submittedAt: frozen.submittedAt,
        digest: frozen.digest,
        source: frozen.source,
        alreadySubmitted: false,
      };
    }
    const submission = await tx.submission.findUniqueOrThrow({
      where: { attemptId },
      select: { id: true, submittedAt: true, digest: true, source: true },
    });
    return {
      submissionId: submission.id,
      submittedAt: submission.submittedAt.toISOString(),
      digest: submission.digest,
      source: submission.source,
      alreadySubmitted: true,
    };
  });
}
