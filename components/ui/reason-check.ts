/** What is wrong with a reason, before anything is sent. */
export type ReasonProblem = "missing" | "tooShort" | "tooLong";

/** The API's bounds on a reason (the `*_LIMITS` of lib/shared/schemas). */
export type ReasonLimits = { isRequired: boolean; minLength?: number; maxLength: number };

/**
 * The trimmed reason's problem against the API's own limits, or null when it may be sent. An optional reason
 * left empty is fine; a required one left empty is "missing" (a dialog may word that as "too short").
 */
export function checkReason(reason: string, limits: ReasonLimits): ReasonProblem | null {
  const trimmed = reason.trim();
  if (trimmed.length === 0) return limits.isRequired ? "missing" : null;
  if (limits.minLength !== undefined && trimmed.length < limits.minLength) return "tooShort";
  if (trimmed.length > limits.maxLength) return "tooLong";
  return null;
}
