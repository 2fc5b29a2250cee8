import "server-only";

import { RateLimiterRes } from "rate-limiter-flexible";

import { log } from "../log";
import type { Limiter, SyncLimiters } from "./create-sync-limiters";
import { rateLimitedError } from "./rate-limited-error";
import { getSyncLimiters } from "./sync-limiters";

/** The key of a cluster-wide budget. */
const ALL = "all";

/**
 * Takes one point from each limiter in order, stopping at the first that refuses: a request limited
 * per attempt does not also spend the cluster-wide budget. A refusal is a 429 RATE_LIMITED with
 * `Retry-After`. A limiter that fails in any other way lets the request through: limits keep the
 * service calm, they never decide whether a candidate's work is accepted.
 */
async function consumeEach(steps: readonly (readonly [Limiter, string])[], attemptId: string): Promise<void> {
  for (const [limiter, key] of steps) {
    try {
      await limiter.consume(key);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw rateLimitedError(rejection.msBeforeNext);
      log.warn("rate limiter failed; letting the request through", {
        attemptId,
        error: rejection instanceof Error ? rejection.message : String(rejection),
      });
      return;
    }
  }
}

// Callers pass the caller's enrollment id (one attempt per enrollment) rather than the attempt id from the
// URL: a guessed attempt id can then never spend another candidate's allowance.

/** One autosave of `attemptId`: its own limit, then the cluster's autosave budget. */
export async function consumeAutosave(attemptId: string, limiters?: SyncLimiters): Promise<void> {
  const { autosavePerAttempt, autosaveGlobal } = limiters ?? (await getSyncLimiters());
  await consumeEach(
    [
      [autosavePerAttempt, attemptId],
      [autosaveGlobal, ALL],
    ],
    attemptId,
  );
}

/** One submit of `attemptId`, from the submit counters only: autosaves can never use them up. */
export async function consumeSubmit(attemptId: string, limiters?: SyncLimiters): Promise<void> {
  const { submitPerAttempt, submitGlobal } = limiters ?? (await getSyncLimiters());
  await consumeEach(
    [
      [submitPerAttempt, attemptId],
      [submitGlobal, ALL],
    ],
    attemptId,
  );
}

/** One heartbeat of `attemptId` (a lenient limit of its own). */
export async function consumeHeartbeat(attemptId: string, limiters?: SyncLimiters): Promise<void> {
  const { heartbeatPerAttempt } = limiters ?? (await getSyncLimiters());
  await consumeEach([[heartbeatPerAttempt, attemptId]], attemptId);
}
