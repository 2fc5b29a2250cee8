import "server-only";

import { AppError } from "@/lib/shared/errors";

/** `Retry-After` in whole seconds for a limiter's `msBeforeNext`: rounded up, never below 1. */
export function retryAfterSeconds(msBeforeNext: number): number {
  if (!Number.isFinite(msBeforeNext) || msBeforeNext <= 0) return 1;
  return Math.max(1, Math.ceil(msBeforeNext / 1000));
}

/**
 * The 429 a limited sync request gets. The message is written for the candidate: the client keeps the
 * draft (or the submit body) on the device and retries after `Retry-After`, so nothing is lost.
 */
export function rateLimitedError(msBeforeNext: number): AppError {
  const seconds = retryAfterSeconds(msBeforeNext);
  return new AppError("RATE_LIMITED", `Saved on your device; the server is busy; retrying in ${seconds} s.`, {
    headers: { "Retry-After": String(seconds) },
    details: { retryAfterSeconds: seconds },
  });
}
