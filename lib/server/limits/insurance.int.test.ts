// The limits keep working when Redis goes away: each Redis limiter's in-memory insuranceLimiter takes
// over. This file runs its own redis-server on a free port (as the health check's test does), so it can
// freeze and kill it without touching the machine's Redis.
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { freePort, startRedisServer, waitUntil } from "@/test-support/server/private-redis";

const port = await freePort();
process.env.REDIS_URL = `redis://127.0.0.1:${port}`;
// A previous test file in this worker may have memoised a client or limiters for another Redis.
delete (globalThis as { holdfastRedis?: unknown }).holdfastRedis;
delete (globalThis as { holdfastSyncLimiters?: unknown }).holdfastSyncLimiters;

const { getRedis } = await import("@/lib/server/redis/client");
const { redisKeys } = await import("@/lib/server/redis/keys");
const { db } = await import("@/lib/server/db/client");
const { autosave, startedAttempt } = await import("@/test-support/server/attempts");
const { consumeAutosave } = await import("./consume-sync-capacity");
const { createSyncLimiters } = await import("./create-sync-limiters");
const { setSyncLimiters } = await import("./sync-limiters");

let redis: ChildProcess;
const namespace = `test-${randomUUID()}`;
const POINTS = 3;

function edit(questionId: string, version: number) {
  return { deviceId: "laptop", answers: [{ questionId, value: `edit ${version}`, version }] };
}

/** How many of `times` sequential consumes for a fresh attempt pass. */
async function allowedOutOf(times: number): Promise<number> {
  const attemptId = randomUUID();
  let allowed = 0;
  for (let i = 0; i < times; i += 1) {
    try {
      await consumeAutosave(attemptId);
      allowed += 1;
    } catch (error) {
      expect((error as { code?: string }).code).toBe("RATE_LIMITED");
    }
  }
  return allowed;
}

beforeAll(async () => {
  redis = startRedisServer(port);
  const client = await getRedis();
  await waitUntil(() => client?.status === "ready");
  setSyncLimiters(
    createSyncLimiters({
      redis: client,
      namespace,
      limits: { autosavePerAttempt: { points: POINTS, durationSeconds: 60 } },
    }),
  );
});

afterAll(() => {
  setSyncLimiters(null);
  redis.kill("SIGKILL");
});

describe("rate limits without Redis", () => {
  it("count in Redis while it is up", async () => {
    const attemptId = randomUUID();
    for (let i = 0; i < POINTS; i += 1) await consumeAutosave(attemptId);
    await expect(consumeAutosave(attemptId)).rejects.toMatchObject({ code: "RATE_LIMITED" });
    const counter = await (await getRedis())!.get(
      `${redisKeys.rateLimit(namespace, "autosavePerAttempt")}:${attemptId}`,
    );
    expect(Number(counter)).toBe(POINTS + 1);
  });

  it("still limit while Redis hangs (SIGSTOP): a slow command gives way to the insurance limiter quickly", async () => {
    redis.kill("SIGSTOP");
    try {
      const started = Date.now();
      expect(await allowedOutOf(POINTS + 2)).toBe(POINTS);
      // Two limiters (the attempt's, the cluster's) per autosave, each cut off after 250 ms, far below
      // the Redis client's 1 s command timeout.
      expect(Date.now() - started).toBeLessThan((POINTS + 2) * 2 * 250 + 1_000);
    } finally {
      redis.kill("SIGCONT");
    }
  });

  it("still limit when Redis is killed, through the endpoint too, and the limited save changes nothing", async () => {
    const attempt = await startedAttempt();
    redis.kill("SIGKILL");
    await new Promise((resolve) => redis.once("exit", resolve));
    const client = await getRedis();
    await waitUntil(() => client?.status !== "ready");

    expect(await allowedOutOf(POINTS + 2)).toBe(POINTS);

    const question = attempt.questions[2]!.id;
    const statuses: number[] = [];
    for (let version = 1; version <= POINTS + 1; version += 1)
      statuses.push((await autosave(attempt, edit(question, version))).status);
    expect(statuses).toEqual([...Array.from({ length: POINTS }, () => 200), 429]);
    const stored = await db.answer.findFirstOrThrow({
      where: { attemptId: attempt.attemptId, questionId: question },
      select: { version: true },
    });
    expect(stored.version).toBe(POINTS);
    expect(
      (await db.attempt.findUniqueOrThrow({ where: { id: attempt.attemptId }, select: { revision: true } })).revision,
    ).toBe(POINTS);
  });
});
