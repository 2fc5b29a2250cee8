import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { AttemptView } from "@/lib/shared/schemas/attempts";

import type { CandidatePrincipal } from "../auth/sessions";
import { findAttemptView } from "./attempt-view";

/** The candidate's own attempt; anyone else's id (or a missing one) is 404 with no data. */
export async function getAttempt(options: { attemptId: string; candidate: CandidatePrincipal }): Promise<AttemptView> {
  const view = await findAttemptView({ attemptId: options.attemptId, enrollmentId: options.candidate.enrollmentId });
  if (!view) throw new AppError("NOT_FOUND", "No such attempt.");
  return view;
}
