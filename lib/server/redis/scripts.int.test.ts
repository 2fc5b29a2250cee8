// The process's Redis client pipelines the commands of one event-loop turn (client.ts). Its Lua scripts are
// defined before its first command: a script's first use in the same turn as another command once failed the
// whole batch's callbacks with an uncaught TypeError (ioredis 6: the turn's pipeline was made before the script
// existed); a command a library defines later is sent on its own. And the submit lock, whose release is one of
// those scripts, still releases only its own token.
import { randomUUID } from "node:crypto";
import type { ChildProcess } from "node:child_process";

import { RateLimiterRedis } from "rate-limiter-flexible";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { freePort, startRedisServer, waitUntil } from "@/test-support/server/private-redis";

const port = await freePort();
process.env.REDIS_URL = `redis://127.0.0.1:${port}`;
// A previous test file in this worker may have memoised a client for another Redis.
delete (globalThis as { holdfastRedis?: unknown }).holdfastRedis;

const { getRedis } = await import("./client");
const { acquireLock, releaseLock } = await import("./lock");
const { consumeInRedis } = await import("../limits/redis-limits");
const { redisKeys } = await import("./keys");
const { DEFAULT_SYNC_LIMITS } = await import("../limits/create-sync-limiters");

let redis: ChildProcess;

beforeAll(async () => {
  redis = startRedisServer(port);
  const client = await getRedis();
  await waitUntil(() => client?.status === "ready");
}, 30_000);

afterAll(() => {
  redis.kill("SIGKILL");
});

// A two-point window for the attempt's autosaves: the third call in it is refused.
const SPECS = { ...DEFAULT_SYNC_LIMITS, autosavePerAttempt: { points: 2, durationSeconds: 60 } };

/**
 * Runs `turn`, then lets the pipeline's callbacks (process.nextTick) run, and expects nothing to have thrown
 * uncaught meanwhile (the ioredis 6 failure mode these tests guard against).
 */
async function expectNoUncaughtError(turn: () => Promise<void>): Promise<void> {
  const errors: unknown[] = [];
  const onError = (error: unknown) => errors.push(error);
  process.on("uncaughtException", onError);
  try {
    await turn();
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toEqual([]);
  } finally {
    process.off("uncaughtException", onError);
  }
}

describe("the Redis client's scripts", () => {
  it("a script's first use in the same turn as other commands: every command answers", async () => {
    const client = (await getRedis())!;
    await expectNoUncaughtError(async () => {
      const key = `test:${randomUUID()}`;
      const limits = { client, namespace: `test-${randomUUID()}`, specs: SPECS };
      // One synchronous turn: plain commands and both scripts' first calls on this connection.
      const answers = await Promise.all([
        client.hset(key, "a", "1"),
        consumeInRedis(limits, [{ limit: "autosavePerAttempt", key: "one" }]),
        client.hincrby(key, "a", 2),
        releaseLock(`${key}:lock`, "nobody's"),
        consumeInRedis(limits, [{ limit: "autosavePerAttempt", key: "one" }]),
        consumeInRedis(limits, [{ limit: "autosavePerAttempt", key: "one" }]),
        client.hget(key, "a"),
      ]);
      expect(answers[0]).toBe(1);
      expect(answers[1]).toEqual({ refusedStep: null, msBeforeNext: 0 });
      expect(answers[2]).toBe(3);
      expect(answers[3]).toBeUndefined();
      expect(answers[4]).toEqual({ refusedStep: null, msBeforeNext: 0 });
      // The third point of a two-point window: refused by its first (and only) step.
      expect(answers[5]?.refusedStep).toBe(0);
      expect(answers[6]).toBe("3");
    });
  });

  it("a command a library defines later (rate-limiter-flexible's, on first use) answers in a turn with others", async () => {
    const client = (await getRedis())!;
    await expectNoUncaughtError(async () => {
      const key = `test:${randomUUID()}`;
      // One synchronous turn: a plain command opens the turn's pipeline, then a library defines and calls its own.
      const first = client.set(key, "1");
      const limiter = new RateLimiterRedis({
        storeClient: client,
        keyPrefix: `test-${randomUUID()}`,
        points: 5,
        duration: 60,
      });
      const consumed = limiter.consume("someone");
      const second = client.incr(key);
      expect(await first).toBe("OK");
      expect((await consumed).remainingPoints).toBe(4);
      expect(await second).toBe(2);
    });
  });

  it("the submit lock: held while taken, released only by its own token", async () => {
    const client = (await getRedis())!;
    const key = redisKeys.submitLock(randomUUID());
    const first = await acquireLock(key, 10_000);
    expect(first.status).toBe("acquired");
    expect((await acquireLock(key, 10_000)).status).toBe("held");

    // Another request's token (its lock expired and this one took the key): the key stays.
    await releaseLock(key, "another request's token");
    expect(await client.exists(key)).toBe(1);
    expect((await acquireLock(key, 10_000)).status).toBe("held");

    await releaseLock(key, first.status === "acquired" ? first.token : "");
    expect(await client.exists(key)).toBe(0);
    expect((await acquireLock(key, 10_000)).status).toBe("acquired");
  });
});
