import "server-only";

import type { Redis } from "ioredis";
import { BurstyRateLimiter, RateLimiterMemory, type RateLimiterRes } from "rate-limiter-flexible";

import { env } from "../env.mjs";
import { redisKeys } from "../redis/keys";

/**
 * One limit: `points` requests per fixed window of `durationSeconds`, and, once those are used up,
 * up to `burst.points` more per `burst.durationSeconds` (rate-limiter-flexible's BurstyRateLimiter).
 * Windows are whole seconds because Redis expiries are.
 */
export type LimitSpec = {
  points: number;
  durationSeconds: number;
  burst?: { points: number; durationSeconds: number };
};

export type SyncLimitSpecs = {
  autosavePerAttempt: LimitSpec;
  autosaveGlobal: LimitSpec;
  submitPerAttempt: LimitSpec;
  submitGlobal: LimitSpec;
  heartbeatPerAttempt: LimitSpec;
};

/**
 * The production limits (docs/sync-protocol.md, "Backpressure"). The client sends one sync request per
 * attempt and device at a time, debounces edits and backs off from 0.5 s, so a healthy candidate stays
 * far below these; they stop a runaway client and keep a reconnect wave from burying Postgres.
 *
 * - Autosave per attempt: 20/s steady plus 100 extra per 10 s, so several tabs and devices flushing at
 *   once after a reconnect pass, and a loop in a client is cut to ~30/s.
 * - Autosave for the whole cluster (all instances share the Redis counter): 5,000/s plus 5,000 extra
 *   per 10 s, about one save every 2 s for 10,000 candidates, with room for everyone coming back online
 *   at once. Past it, clients wait `Retry-After` (≤ 1 s) with the draft safe on the device.
 * - Submit has its own counters, so an autosave storm never takes a submit's capacity. Per attempt
 *   300 per 10 s: a burst of duplicate submits (tabs, devices, a client retrying through dropped
 *   responses) is answered with replays, which are one indexed read each, rather than with 429s. Cluster-wide 2,000/s plus 10,000 extra per 10 s:
 *   deadlines bunch submits together, and a submit delayed past deadline + grace would turn its final
 *   delta into late answers, so this budget only exists to keep Postgres alive, not to smooth load.
 * - Heartbeat per attempt: 30 per 10 s. The client beats every 15 s per device and at once on a change
 *   of state; heartbeats are cheap (Redis, Postgres at most every 30 s per device).
 */
export const DEFAULT_SYNC_LIMITS: SyncLimitSpecs = {
  autosavePerAttempt: { points: 20, durationSeconds: 1, burst: { points: 100, durationSeconds: 10 } },
  autosaveGlobal: { points: 5_000, durationSeconds: 1, burst: { points: 5_000, durationSeconds: 10 } },
  submitPerAttempt: { points: 300, durationSeconds: 10 },
  submitGlobal: { points: 2_000, durationSeconds: 1, burst: { points: 10_000, durationSeconds: 10 } },
  heartbeatPerAttempt: { points: 30, durationSeconds: 10 },
};

/** What every limiter here can do: take one point for a key, or reject with a RateLimiterRes. */
export type Limiter = { consume(key: string, points?: number): Promise<RateLimiterRes> };

/** The limits with Redis counters shared by every instance (redis-limits.ts). */
export type RedisLimits = { client: Redis; namespace: string; specs: SyncLimitSpecs };

export type SyncLimiters = {
  /**
   * `redis`: counters in Redis shared by every instance (`redis`), these limiters being this process's
   * insurance while Redis fails or the breaker is open; `memory`: this process only, these are the limits.
   */
  mode: "redis" | "memory";
  redis: RedisLimits | null;
  autosavePerAttempt: Limiter;
  autosaveGlobal: Limiter;
  submitPerAttempt: Limiter;
  submitGlobal: Limiter;
  heartbeatPerAttempt: Limiter;
};

export type CreateSyncLimitersOptions = {
  /** The Redis client, or null for single-instance mode (memory limiters only). */
  redis: Redis | null;
  /** Overrides of DEFAULT_SYNC_LIMITS, per limiter. */
  limits?: Partial<SyncLimitSpecs>;
  /** Separates the Redis counters of different configurations (tests use a random one). */
  namespace?: string;
  /** Instances sharing the cluster-wide budgets; each one's insurance takes its share. */
  instances?: number;
};

type Scope = "per-attempt" | "global";

/**
 * Builds the sync endpoints' rate limiters.
 *
 * With Redis, one request's limits (its attempt's, then the cluster's; each a steady window and a burst)
 * are taken by one Lua script in one round trip (redis-limits.ts), through the Redis breaker
 * (lib/server/redis/breaker.ts). While Redis fails, is slower than REDIS_COMMAND_TIMEOUT_MS, or the breaker
 * is open, this process goes on limiting alone with the in-memory insurance limiters made here: the insurance
 * of a cluster-wide budget gets this instance's share of it, so N instances together stay near it.
 * Without Redis (single-instance mode) the memory limiters are the limiters.
 */
export function createSyncLimiters(options: CreateSyncLimitersOptions): SyncLimiters {
  const limits: SyncLimitSpecs = { ...DEFAULT_SYNC_LIMITS, ...options.limits };
  const namespace = options.namespace ?? "default";
  const instances = Math.max(1, options.instances ?? env.HOLDFAST_INSTANCES);
  const { redis } = options;

  function store(name: string, points: number, durationSeconds: number, scope: Scope): RateLimiterMemory {
    const keyPrefix = redisKeys.rateLimit(namespace, name);
    const share = redis && scope === "global" ? Math.ceil(points / instances) : points;
    return new RateLimiterMemory({ keyPrefix, points: share, duration: durationSeconds });
  }

  function limiter(name: keyof SyncLimitSpecs, scope: Scope): Limiter {
    const spec = limits[name];
    const steady = store(name, spec.points, spec.durationSeconds, scope);
    if (!spec.burst) return steady;
    const burst = store(`${name}-burst`, spec.burst.points, spec.burst.durationSeconds, scope);
    return new BurstyRateLimiter(steady, burst);
  }

  return {
    mode: redis ? "redis" : "memory",
    redis: redis ? { client: redis, namespace, specs: limits } : null,
    autosavePerAttempt: limiter("autosavePerAttempt", "per-attempt"),
    autosaveGlobal: limiter("autosaveGlobal", "global"),
    submitPerAttempt: limiter("submitPerAttempt", "per-attempt"),
    submitGlobal: limiter("submitGlobal", "global"),
    heartbeatPerAttempt: limiter("heartbeatPerAttempt", "per-attempt"),
  };
}
