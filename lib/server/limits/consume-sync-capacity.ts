import "server-only";

import { RateLimiterRes } from "rate-limiter-flexible";

import { log } from "../log";
import { redisBreaker } from "../redis/breaker";
import type { Limiter, SyncLimiters, SyncLimitSpecs } from "./create-sync-limiters";
import { rateLimitedError } from "./rate-limited-error";
import { consumeInRedis } from "./redis-limits";
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

/**
 * One request's limits: with Redis, all of them in one Lua call through the breaker (redis-limits.ts);
 * when Redis is not ready, fails, is slow or the breaker is open, this process's insurance limiters
 * (the same steps, in memory) decide instead.
 */
async function consume(
  limiters: SyncLimiters,
  steps: readonly (readonly [keyof SyncLimitSpecs, string])[],
  enrollmentId: string,
): Promise<void> {
  const { redis } = limiters;
  if (redis && redis.client.status === "ready") {
    const outcome = await redisBreaker().run(
      () =>
        consumeInRedis(
          redis,
          steps.map(([limit, key]) => ({ limit, key })),
        ),
      () => null,
    );
    if (outcome) {
      if (outcome.refusedStep !== null) throw rateLimitedError(outcome.msBeforeNext);
      return;
    }
  }
  await consumeEach(
    steps.map(([limit, key]) => [limiters[limit], key] as const),
    enrollmentId,
  );
}

// Keyed by the caller's enrollment id (one attempt per enrollment, so the "per attempt" limits are per
// candidate), never by the attempt id from the URL: a guessed attempt id can then never spend another
// candidate's allowance.

/** One autosave by the candidate of `enrollmentId`: their own limit, then the cluster's autosave budget. */
export async function consumeAutosave(enrollmentId: string, limiters?: SyncLimiters): Promise<void> {
  await consume(
    limiters ?? (await getSyncLimiters()),
    [
      ["autosavePerAttempt", enrollmentId],
      ["autosaveGlobal", ALL],
    ],
    enrollmentId,
  );
}

/** One submit by the candidate of `enrollmentId`, from the submit counters only: autosaves can never use them up. */
export async function consumeSubmit(enrollmentId: string, limiters?: SyncLimiters): Promise<void> {
  await consume(
    limiters ?? (await getSyncLimiters()),
    [
      ["submitPerAttempt", enrollmentId],
      ["submitGlobal", ALL],
    ],
    enrollmentId,
  );
}

/** One heartbeat by the candidate of `enrollmentId` (a lenient limit of its own). */
export async function consumeHeartbeat(enrollmentId: string, limiters?: SyncLimiters): Promise<void> {
  await consume(limiters ?? (await getSyncLimiters()), [["heartbeatPerAttempt", enrollmentId]], enrollmentId);
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
