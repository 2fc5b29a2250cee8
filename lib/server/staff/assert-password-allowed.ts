import "server-only";

import { AppError } from "@/lib/shared/errors";
import { PASSWORD_PROBLEM_MESSAGES, passwordProblem } from "@/lib/shared/password-policy";

/** Throws 422 WEAK_PASSWORD, with `details.reason`, for a password the policy refuses for `email`. */
export function assertPasswordAllowed(password: string, email: string): void {
  const problem = passwordProblem(password, email);
  if (problem)
    throw new AppError("WEAK_PASSWORD", PASSWORD_PROBLEM_MESSAGES[problem], { details: { reason: problem } });
}
