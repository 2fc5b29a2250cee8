import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { AppError } from "@/lib/shared/errors";

import { consumeAutosave, consumeHeartbeat, consumeSubmit } from "./consume-sync-capacity";
import { createSyncLimiters, DEFAULT_SYNC_LIMITS, type SyncLimiters } from "./create-sync-limiters";

// Memory limiters (single-instance mode): the same rate-limiter-flexible code paths as the Redis
// limiters' insurance, without I/O. The Redis-backed behaviour is in rate-limits.int.test.ts.

async function countAllowed(
  times: number,
  consume: () => Promise<void>,
): Promise<{ allowed: number; errors: AppError[] }> {
  let allowed = 0;
  const errors: AppError[] = [];
  for (let i = 0; i < times; i += 1) {
    try {
      await consume();
      allowed += 1;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      errors.push(error);
    }
  }
  return { allowed, errors };
}

describe("consumeAutosave / consumeSubmit / consumeHeartbeat (memory mode)", () => {
  it("lets an attempt's steady rate plus its burst through, then answers 429 with Retry-After", async () => {
    const limiters = createSyncLimiters({ redis: null });
    expect(limiters.mode).toBe("memory");
    const attemptId = randomUUID();
    const { autosavePerAttempt: spec } = DEFAULT_SYNC_LIMITS;
    const { allowed, errors } = await countAllowed(200, () => consumeAutosave(attemptId, limiters));

    expect(allowed).toBe(spec.points + (spec.burst?.points ?? 0));
    expect(errors).toHaveLength(200 - allowed);
    const first = errors[0]!;
    expect(first.code).toBe("RATE_LIMITED");
    expect(Number(first.headers?.["Retry-After"])).toBeGreaterThanOrEqual(1);
    expect(first.details).toEqual({ retryAfterSeconds: Number(first.headers?.["Retry-After"]) });

    // Another attempt is not affected.
    await expect(consumeAutosave(randomUUID(), limiters)).resolves.toBeUndefined();
  });

  it("never lets autosaves use up submit capacity", async () => {
    const limiters = createSyncLimiters({
      redis: null,
      limits: { autosaveGlobal: { points: 3, durationSeconds: 60 }, submitGlobal: { points: 3, durationSeconds: 60 } },
    });
    const storm = await countAllowed(20, () => consumeAutosave(randomUUID(), limiters));
    expect(storm.allowed).toBe(3);

    const submits = await countAllowed(3, () => consumeSubmit(randomUUID(), limiters));
    expect(submits.allowed).toBe(3);
  });

  it("does not spend the global budget on a request already limited for its attempt", async () => {
    const limiters = createSyncLimiters({
      redis: null,
      limits: {
        autosavePerAttempt: { points: 1, durationSeconds: 60 },
        autosaveGlobal: { points: 5, durationSeconds: 60 },
      },
    });
    const noisy = randomUUID();
    await countAllowed(10, () => consumeAutosave(noisy, limiters));
    const others = await countAllowed(4, () => consumeAutosave(randomUUID(), limiters));
    expect(others.allowed).toBe(4);
  });

  it("gives heartbeats a limit of their own", async () => {
    const limiters = createSyncLimiters({
      redis: null,
      limits: { heartbeatPerAttempt: { points: 2, durationSeconds: 60 } },
    });
    const attemptId = randomUUID();
    const beats = await countAllowed(4, () => consumeHeartbeat(attemptId, limiters));
    expect(beats.allowed).toBe(2);
    await expect(consumeAutosave(attemptId, limiters)).resolves.toBeUndefined();
  });

  it("lets the request through when a limiter fails for another reason than a limit", async () => {
    const broken = { consume: () => Promise.reject(new Error("store exploded")) };
    const limiters: SyncLimiters = { ...createSyncLimiters({ redis: null }), autosavePerAttempt: broken };
    await expect(consumeAutosave(randomUUID(), limiters)).resolves.toBeUndefined();
  });
});
