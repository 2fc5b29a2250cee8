import "server-only";

import { redisKeys } from "../redis/keys";
import { withScripts } from "../redis/scripts";
import type { LimitSpec, RedisLimits, SyncLimitSpecs } from "./create-sync-limiters";

/** One step: which limit (a key of SyncLimitSpecs) and whose counter (an enrollment id, or `all`). */
export type LimitStep = { limit: keyof SyncLimitSpecs; key: string };

export type LimitsOutcome = { refusedStep: number | null; msBeforeNext: number };

function argsOf(spec: LimitSpec): number[] {
  return [spec.points, spec.durationSeconds, spec.burst?.points ?? 0, spec.burst?.durationSeconds ?? 1];
}

/**
 * Runs the script for `steps` (EVALSHA through ioredis's defineCommand, EVAL once when Redis does not know
 * it yet; lib/server/redis/scripts.ts). Throws when Redis does: the caller puts it behind the breaker and falls
 * back to the insurance.
 */
export async function consumeInRedis(limits: RedisLimits, steps: readonly LimitStep[]): Promise<LimitsOutcome> {
  const client = withScripts(limits.client);
  const keys: string[] = [];
  const args: number[] = [steps.length];
  for (const { limit, key } of steps) {
    keys.push(
      `${redisKeys.rateLimit(limits.namespace, limit)}:${key}`,
      `${redisKeys.rateLimit(limits.namespace, `${limit}-burst`)}:${key}`,
    );
    args.push(...argsOf(limits.specs[limit]));
  }
  const [refusedStep, msBeforeNext] = await client.holdfastConsumeLimits(keys.length, ...keys, ...args);
  return { refusedStep: refusedStep === 0 ? null : refusedStep - 1, msBeforeNext };
}
