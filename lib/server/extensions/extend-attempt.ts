import "server-only";

import { AppError, validationError } from "@/lib/shared/errors";
import { ExtendSchema } from "@/lib/shared/schemas/proctor";
import type { ExtendResponse } from "@/lib/shared/schemas/proctor-actions";

import { findCandidateForStaff, type StaffCaller } from "../proctor/find-candidate-for-staff";
import { extendCandidate } from "./extend-candidate";

/**
 * Extra time for one candidate, named by attempt id (or by enrollment id before they start). Another exam's
 * or an unassigned exam's id is a 404 whatever the body; then the body (`ExtendSchema`, else 422). A submitted
 * attempt is 409 ALREADY_SUBMITTED with its submission id.
 */
export async function extendAttempt(options: {
  id: string;
  caller: StaffCaller;
  /** The request's JSON body. */
  body: unknown;
  requestKey: string | null;
}): Promise<{ response: ExtendResponse; isReplay: boolean }> {
  const target = await findCandidateForStaff({ id: options.id, caller: options.caller });
  if (!target) throw new AppError("NOT_FOUND", "No such attempt.");
  const parsed = ExtendSchema.safeParse(options.body);
  if (!parsed.success) throw validationError(parsed.error);
  const body = parsed.data;

  const result = await extendCandidate({
    target,
    caller: options.caller,
    seconds: body.seconds,
    reason: body.reason,
    requestKey: options.requestKey,
  });
  if (result.outcome === "already_submitted") {
    throw new AppError(
      "ALREADY_SUBMITTED",
      "This attempt has already been submitted; there is no time left to extend.",
      {
        details: { submissionId: result.submissionId },
      },
    );
  }
  return {
    response: {
      extensionId: result.extensionId,
      enrollmentId: result.enrollmentId,
      attemptId: result.attemptId,
      seconds: result.seconds,
      previousDeadline: result.previousDeadline?.toISOString() ?? null,
      deadline: result.deadline?.toISOString() ?? null,
      outcome: result.outcome,
    },
    isReplay: result.isReplay,
  };
}
