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
 * per candidate does not also spend the cluster-wide budget. A refusal is a 429 RATE_LIMITED with
 * `Retry-After`. A limiter that fails in any other way lets the request through: limits keep the
 * service calm, they never decide whether a candidate's work is accepted.
 */
async function consumeEach(steps: readonly (readonly [Limiter, string])[], enrollmentId: string): Promise<void> {
  for (const [limiter, key] of steps) {
    try {
      await limiter.consume(key);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw rateLimitedError(rejection.msBeforeNext);
      log.warn("rate limiter failed; letting the request through", {
        enrollmentId,
        error: rejection instanceof Error ? rejection.message : String(rejection),
      });
      return;
    }
  }
}

// Keyed by the caller's enrollment id (one attempt per enrollment, so the "per attempt" limits are per
// candidate), never by the attempt id from the URL: a guessed attempt id can then never spend another
// candidate's allowance.

/** One autosave by the candidate of `enrollmentId`: their own limit, then the cluster's autosave budget. */
export async function consumeAutosave(enrollmentId: string, limiters?: SyncLimiters): Promise<void> {
  const { autosavePerAttempt, autosaveGlobal } = limiters ?? (await getSyncLimiters());
  await consumeEach(
    [
      [autosavePerAttempt, enrollmentId],
      [autosaveGlobal, ALL],
    ],
    enrollmentId,
  );
}

/** One submit by the candidate of `enrollmentId`, from the submit counters only: autosaves can never use them up. */
export async function consumeSubmit(enrollmentId: string, limiters?: SyncLimiters): Promise<void> {
  const { submitPerAttempt, submitGlobal } = limiters ?? (await getSyncLimiters());
  await consumeEach(
    [
      [submitPerAttempt, enrollmentId],
      [submitGlobal, ALL],
    ],
    enrollmentId,
  );
}

/** One heartbeat by the candidate of `enrollmentId` (a lenient limit of its own). */
export async function consumeHeartbeat(enrollmentId: string, limiters?: SyncLimiters): Promise<void> {
  const { heartbeatPerAttempt } = limiters ?? (await getSyncLimiters());
  await consumeEach([[heartbeatPerAttempt, enrollmentId]], enrollmentId);
}

/** The sync requests that have limits of their own (`route()`'s `limit` option). */
export type SyncLimit = "autosave" | "submit" | "heartbeat";

const CONSUMERS: Record<SyncLimit, (enrollmentId: string) => Promise<void>> = {
  autosave: (enrollmentId) => consumeAutosave(enrollmentId),
  submit: (enrollmentId) => consumeSubmit(enrollmentId),
  heartbeat: (enrollmentId) => consumeHeartbeat(enrollmentId),
};

/** One request of `kind` by the candidate of `enrollmentId`, or 429 RATE_LIMITED. */
export function consumeSyncCapacity(kind: SyncLimit, enrollmentId: string): Promise<void> {
  return CONSUMERS[kind](enrollmentId);
}
