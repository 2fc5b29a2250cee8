import "server-only";

import type { Redis } from "ioredis";

import { redisKeys } from "../redis/keys";
import type { LimitSpec, RedisLimits, SyncLimitSpecs } from "./create-sync-limiters";

/**
 * Takes one point from each step's counters, in order, in one round trip; stops at the first step that
 * refuses, so a request limited for its attempt does not also spend the cluster's budget.
 *
 * Each step is a fixed window (its steady counter) and, once that is spent, an optional burst window: the
 * semantics of rate-limiter-flexible's RateLimiterRedis (the same `SET NX EX` + `INCRBY` + `PTTL` per
 * counter, so a refused request still counts) inside a BurstyRateLimiter (a refusal waits the smaller of
 * the two windows' remaining times). The keys are those rate-limiter-flexible used, so counters carry over.
 *
 * KEYS: per step, its steady key then its burst key (named even when the step has no burst).
 * ARGV: the number of steps, then per step: steady points, steady seconds, burst points (0: none), burst seconds.
 * Returns {refused step (1-based; 0 = all allowed), ms before the refusing window ends}.
 */
const CONSUME_SCRIPT = `
local function take(key, seconds)
  redis.call('set', key, 0, 'EX', seconds, 'NX')
  local consumed = redis.call('incrby', key, 1)
  local ttl = redis.call('pttl', key)
  if ttl == -1 then
    redis.call('expire', key, seconds)
    ttl = 1000 * seconds
  end
  return consumed, ttl
end
for step = 1, tonumber(ARGV[1]) do
  local a = 2 + (step - 1) * 4
  local points, seconds = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
  local burstPoints, burstSeconds = tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3])
  local consumed, ttl = take(KEYS[2 * step - 1], seconds)
  if consumed > points then
    if burstPoints == 0 then return {step, ttl} end
    local burstConsumed, burstTtl = take(KEYS[2 * step], burstSeconds)
    if burstConsumed > burstPoints then return {step, math.min(ttl, burstTtl)} end
  end
end
return {0, 0}
`;

const COMMAND = "holdfastConsumeLimits";

type WithCommand = Redis & { [COMMAND]?: (...args: (string | number)[]) => Promise<[number, number]> };

/** One step: which limit (a key of SyncLimitSpecs) and whose counter (an enrollment id, or `all`). */
export type LimitStep = { limit: keyof SyncLimitSpecs; key: string };

export type LimitsOutcome = { refusedStep: number | null; msBeforeNext: number };

function argsOf(spec: LimitSpec): number[] {
  return [spec.points, spec.durationSeconds, spec.burst?.points ?? 0, spec.burst?.durationSeconds ?? 1];
}

/**
 * Runs the script for `steps` (EVALSHA through ioredis's defineCommand, EVAL once when Redis does not know
 * it yet). Throws when Redis does: the caller puts it behind the breaker and falls back to the insurance.
 */
export async function consumeInRedis(limits: RedisLimits, steps: readonly LimitStep[]): Promise<LimitsOutcome> {
  const client = limits.client as WithCommand;
  if (!client[COMMAND]) client.defineCommand(COMMAND, { lua: CONSUME_SCRIPT });
  const keys: string[] = [];
  const args: number[] = [steps.length];
  for (const { limit, key } of steps) {
    keys.push(
      `${redisKeys.rateLimit(limits.namespace, limit)}:${key}`,
      `${redisKeys.rateLimit(limits.namespace, `${limit}-burst`)}:${key}`,
    );
    args.push(...argsOf(limits.specs[limit]));
  }
  const [refusedStep, msBeforeNext] = await client[COMMAND]!(keys.length, ...keys, ...args);
  return { refusedStep: refusedStep === 0 ? null : refusedStep - 1, msBeforeNext };
}
