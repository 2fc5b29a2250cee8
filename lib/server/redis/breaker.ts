import "server-only";

import {
  BrokenCircuitError,
  circuitBreaker,
  CircuitState,
  ConsecutiveBreaker,
  handleAll,
  type CircuitBreakerPolicy,
} from "cockatiel";

import { env } from "../env.mjs";
import { log } from "../log";
import { getResilienceMetrics } from "../metrics/resilience-metrics";

export type BreakerState = "closed" | "open" | "half-open" | "disabled";

/** How a guarded Redis call ended: answered, failed or timed out (counted by the breaker), or skipped while open. */
export type RedisCallOutcome = "ok" | "failed" | "timeout" | "bypassed";

export type RedisBreakerOptions = {
  /** A command that takes longer gives up (and counts as a failure). */
  timeoutMs: number;
  /** Failures or timeouts in a row that open the breaker. */
  failures: number;
  /** How long the breaker stays open before one probe may go through. */
  halfOpenAfterMs: number;
  /** Only the per-command timeout, never open (the benchmarks' "before"). */
  isDisabled?: boolean;
};

export type RedisBreaker = {
  /**
   * Runs one Redis operation: its answer, or `fallback()` when it fails, takes longer than the timeout, or
   * the breaker is open (then it is not even sent). Never throws because of Redis.
   */
  run<T>(operation: () => Promise<T>, fallback: () => T | Promise<T>): Promise<T>;
  /** True while calls are skipped: callers that cannot run a fallback cheaply may check it first. */
  isOpen(): boolean;
  state(): BreakerState;
  /** Calls by outcome since this breaker was made (tests, /api/health). */
  counts(): Record<RedisCallOutcome, number>;
};

/** A Redis call that took longer than the breaker's timeout. */
export class RedisTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`redis did not answer within ${timeoutMs} ms`);
    this.name = "RedisTimeoutError";
  }
}

/**
 * `operation()`, or a RedisTimeoutError once `timeoutMs` has passed. When the timer fires, the check waits
 * for one setImmediate first: the poll phase then runs, so an answer that arrived while the event loop was
 * busy elsewhere (a GC pause, a CPU-heavy request, a cold module load) wins, and a stalled loop is never
 * mistaken for a hung Redis (which would open the breaker for nothing).
 */
function withTimeout<T>(operation: () => Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let isSettled = false;
    const timer = setTimeout(
      () =>
        setImmediate(() => {
          if (isSettled) return;
          isSettled = true;
          reject(new RedisTimeoutError(timeoutMs));
        }),
      timeoutMs,
    );
    operation().then(
      (value) => {
        if (isSettled) return;
        isSettled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        if (isSettled) return;
        isSettled = true;
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

const STATE_NAMES: Record<CircuitState, BreakerState> = {
  [CircuitState.Closed]: "closed",
  [CircuitState.Open]: "open",
  [CircuitState.HalfOpen]: "half-open",
  [CircuitState.Isolated]: "open",
};

/**
 * One breaker (cockatiel) in front of every Redis call a request makes: the limits, the submit lock, the
 * heartbeats' and the live feeds' writes. A hung Redis (SIGSTOP: connected, "ready", silent) would otherwise
 * cost every request the timeouts of each of its calls; a few timeouts in a row open the breaker and from then
 * on requests skip Redis at once and Postgres decides alone, as it does without Redis
 * (docs/decisions/020-redis-breaker-and-admission-control.md). After `halfOpenAfterMs` one call goes through
 * as a probe: its success closes the breaker, its failure opens it again.
 */
export function createRedisBreaker(options: RedisBreakerOptions): RedisBreaker {
  const counts: Record<RedisCallOutcome, number> = { ok: 0, failed: 0, timeout: 0, bypassed: 0 };
  const metrics = getResilienceMetrics();
  const count = (outcome: RedisCallOutcome): void => {
    counts[outcome] += 1;
    metrics.redisCalls.inc({ outcome });
  };

  const breaker: CircuitBreakerPolicy | null = options.isDisabled
    ? null
    : circuitBreaker(handleAll, {
        halfOpenAfter: options.halfOpenAfterMs,
        breaker: new ConsecutiveBreaker(options.failures),
      });
  const execute = <T>(operation: () => Promise<T>): Promise<T> =>
    breaker
      ? breaker.execute(() => withTimeout(operation, options.timeoutMs))
      : withTimeout(operation, options.timeoutMs);

  const state = (): BreakerState => (breaker ? STATE_NAMES[breaker.state] : "disabled");
  metrics.redisBreakerState.set(0);
  breaker?.onStateChange((next) => {
    const name = STATE_NAMES[next];
    metrics.redisBreakerState.set(next === CircuitState.Closed ? 0 : next === CircuitState.HalfOpen ? 1 : 2);
    metrics.redisBreakerTransitions.inc({ to: name });
    if (name === "open") log.warn("redis breaker open: skipping Redis, Postgres decides alone", options);
    if (name === "closed") log.info("redis breaker closed: using Redis again");
  });

  return {
    async run(operation, fallback) {
      try {
        const result = await execute(operation);
        count("ok");
        return result;
      } catch (error) {
        if (error instanceof BrokenCircuitError) count("bypassed");
        else if (error instanceof RedisTimeoutError) count("timeout");
        else count("failed");
        return fallback();
      }
    },
    isOpen: () => breaker !== null && (breaker.state === CircuitState.Open || breaker.state === CircuitState.Isolated),
    state,
    counts: () => ({ ...counts }),
  };
}

const globalForBreaker = globalThis as unknown as { holdfastRedisBreaker?: RedisBreaker };

/** The breaker of this process, configured from REDIS_COMMAND_TIMEOUT_MS, REDIS_BREAKER_* (lib/server/env.mjs). */
export function redisBreaker(): RedisBreaker {
  return (globalForBreaker.holdfastRedisBreaker ??= createRedisBreaker({
    timeoutMs: env.REDIS_COMMAND_TIMEOUT_MS,
    failures: env.REDIS_BREAKER_FAILURES,
    halfOpenAfterMs: env.REDIS_BREAKER_HALF_OPEN_MS,
    isDisabled: env.REDIS_BREAKER_DISABLED,
  }));
}

/** Replaces this process's breaker (tests); `null` goes back to the one from the environment. */
export function setRedisBreaker(breaker: RedisBreaker | null): void {
  globalForBreaker.holdfastRedisBreaker = breaker ?? undefined;
}
