// The Redis breaker against a real Redis this file freezes (SIGSTOP): without the breaker every autosave
// pays the limiter's timeout for as long as Redis hangs; with it, a few requests pay once, the rest skip
// Redis (Postgres decides), and a probe after the half-open interval brings Redis back by itself.
import { randomUUID } from "node:crypto";
import type { ChildProcess } from "node:child_process";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { freePort, percentile, startRedisServer, waitUntil } from "@/test-support/server/private-redis";

const port = await freePort();
process.env.REDIS_URL = `redis://127.0.0.1:${port}`;
// A previous test file in this worker may have memoised a client or limiters for another Redis.
delete (globalThis as { holdfastRedis?: unknown }).holdfastRedis;
delete (globalThis as { holdfastSyncLimiters?: unknown }).holdfastSyncLimiters;

const { getRedis } = await import("./client");
const { createRedisBreaker, setRedisBreaker } = await import("./breaker");
const { redisKeys } = await import("./keys");
const { checkHealth } = await import("../health/check-health");
const { createSyncLimiters } = await import("../limits/create-sync-limiters");
const { setSyncLimiters } = await import("../limits/sync-limiters");
const { autosave, heartbeat, startedAttempt } = await import("@/test-support/server/attempts");
const { subscribeExam } = await import("../live/exam-bus");
// Imported here, not above: it loads the bus, and with it the Redis client, which must see REDIS_URL first.
const { busSettled } = await import("@/test-support/server/bus");

const FAILURES = 3;
const HALF_OPEN_MS = 1_500;
const TIMEOUT_MS = 250;
const namespace = `test-${randomUUID()}`;

let redis: ChildProcess;
let breaker: ReturnType<typeof createRedisBreaker>;
let attempt: Awaited<ReturnType<typeof startedAttempt>>;
let version = 0;

/** `times` sequential autosaves of the attempt (each a new version); their statuses and durations (ms). */
async function autosaves(times: number): Promise<{ statuses: number[]; durations: number[] }> {
  const statuses: number[] = [];
  const durations: number[] = [];
  const question = attempt.questions[2]!.id;
  for (let i = 0; i < times; i += 1) {
    version += 1;
    const started = performance.now();
    const response = await autosave(attempt, {
      deviceId: "laptop",
      answers: [{ questionId: question, value: `edit ${version}`, version }],
    });
    durations.push(performance.now() - started);
    statuses.push(response.status);
  }
  return { statuses, durations };
}

async function attemptCounter(): Promise<number> {
  const value = await (await getRedis())!.get(
    `${redisKeys.rateLimit(namespace, "autosavePerAttempt")}:${attempt.enrollmentId}`,
  );
  return Number(value ?? 0);
}

beforeAll(async () => {
  redis = startRedisServer(port);
  const client = await getRedis();
  await waitUntil(() => client?.status === "ready");
  breaker = createRedisBreaker({ timeoutMs: TIMEOUT_MS, failures: FAILURES, halfOpenAfterMs: HALF_OPEN_MS });
  setRedisBreaker(breaker);
  setSyncLimiters(
    createSyncLimiters({
      redis: client,
      namespace,
      limits: { autosavePerAttempt: { points: 100_000, durationSeconds: 3_600 } },
    }),
  );
  // On a loaded machine the first exam's transaction can outlast Prisma's 5 s while modules load: retry once.
  attempt = await startedAttempt().catch(() => startedAttempt());
}, 60_000);

afterAll(() => {
  setSyncLimiters(null);
  setRedisBreaker(null);
  redis.kill("SIGCONT");
  redis.kill("SIGKILL");
});

describe("the Redis breaker", () => {
  let healthyP99 = 0;

  it("stays closed and uses Redis while it answers", async () => {
    await autosaves(5); // warm up the route
    const before = await attemptCounter();
    const { statuses, durations } = await autosaves(50);
    healthyP99 = percentile(durations, 99);
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(await attemptCounter()).toBe(before + 50);
    expect(breaker.state()).toBe("closed");
    expect(breaker.counts().timeout).toBe(0);
  });

  it("opens after a few timeouts while Redis hangs (SIGSTOP); then requests skip Redis and are not charged a timeout", async () => {
    redis.kill("SIGSTOP");
    const timeoutsBefore = breaker.counts().timeout;
    const { statuses, durations } = await autosaves(50);
    const timeoutsHit = breaker.counts().timeout - timeoutsBefore;
    const hungP99 = percentile(durations, 99);
    const hungP90 = percentile(durations, 90);
    console.info(
      `autosave p99 healthy ${healthyP99.toFixed(1)} ms, Redis hung ${hungP99.toFixed(1)} ms (p90 ${hungP90.toFixed(1)} ms); ` +
        `timeouts hit: ${timeoutsHit} for 50 autosaves`,
    );

    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(breaker.state()).toBe("open");
    // Without the breaker each of the 50 autosaves hits the limiter's timeout (and its publish one more):
    // 50 to 100. With it, the calls until it opens, plus the live feed publishes already on their way.
    expect(timeoutsHit).toBeLessThanOrEqual(2 * FAILURES);
    expect(breaker.counts().bypassed).toBeGreaterThanOrEqual(40);

    const health = await checkHealth();
    expect(health).toMatchObject({ status: "degraded", postgres: "up", redis: "down", redisBreaker: "open" });
  });

  it("while Redis hangs, a heartbeat and an autosave carrying the device's status still tell this process's dashboards", async () => {
    // Their live-bus message goes with the status's write in one MULTI; when that write fails the message falls
    // back to the local listeners, as every publish does.
    await busSettled();
    const received: string[] = [];
    const stop = subscribeExam(attempt.examId, (message) => {
      if (message.type === "change") received.push(message.kind);
    });
    try {
      version += 1;
      const saved = await autosave(attempt, {
        deviceId: "laptop",
        answers: [{ questionId: attempt.questions[2]!.id, value: `edit ${version}`, version }],
        device: {
          online: true,
          pending: 0,
          oldestPendingMs: 0,
          lastAckRevision: 0,
          clock: version,
          consecutiveFailures: 0,
          storagePersisted: true,
        },
      });
      expect(saved.status).toBe(200);
      expect((await heartbeat(attempt)).status).toBe(200);
      await waitUntil(() => received.length >= 2, 5_000);
      expect(received.sort()).toEqual(["heartbeat", "saved"]);
    } finally {
      stop();
    }
  });

  it("closes by itself within its half-open interval once Redis answers again (SIGCONT), and Redis is used again", async () => {
    redis.kill("SIGCONT");
    const resumed = Date.now();
    await new Promise((resolve) => setTimeout(resolve, HALF_OPEN_MS + 50));
    const before = await attemptCounter();
    await autosaves(1); // the probe
    expect(breaker.state()).toBe("closed");
    expect(Date.now() - resumed).toBeLessThan(HALF_OPEN_MS + 1_000);

    await autosaves(3);
    expect(await attemptCounter()).toBe(before + 4);
    expect((await checkHealth()).redisBreaker).toBe("closed");
  });
});
