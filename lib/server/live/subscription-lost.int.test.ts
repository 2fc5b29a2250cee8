// The live bus when Redis dies under it (SIGKILL of a redis-server of this file's own): a reader that waits for
// its subscription to go live (a candidate's stream, a dashboard's snapshot) is not held for the 2 s bound while
// the subscriber connection is lost (its SUBSCRIBE fails at the first reconnect attempt); what this process
// publishes reaches it in process. Once Redis is back, a new subscription is live again only when Redis acknowledged it.
import { randomUUID } from "node:crypto";
import type { ChildProcess } from "node:child_process";

import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { freePort, startRedisServer, waitUntil } from "@/test-support/server/private-redis";

const port = await freePort();
process.env.REDIS_URL = `redis://127.0.0.1:${port}`;
// A previous test file in this worker may have memoised a client, a bus or a breaker for another Redis.
delete (globalThis as { holdfastRedis?: unknown }).holdfastRedis;
delete (globalThis as { holdfastExamBus?: unknown }).holdfastExamBus;
delete (globalThis as { holdfastRedisBreaker?: unknown }).holdfastRedisBreaker;

const { getRedis } = await import("../redis/client");
const { redisBreaker } = await import("../redis/breaker");
const { redisKeys } = await import("../redis/keys");
const { publishExamMessage, subscribeAttemptSignals, subscribeExam, SUBSCRIPTION_WAIT_MS, whenLive } =
  await import("./exam-bus");

let redis: ChildProcess;
const subscriberStatus = () =>
  (globalThis as { holdfastExamBus?: { subscriber: Redis | null } }).holdfastExamBus?.subscriber?.status;

beforeAll(async () => {
  redis = startRedisServer(port);
  const client = await getRedis();
  await waitUntil(() => client?.status === "ready");
}, 30_000);

afterAll(() => {
  redis.kill("SIGKILL");
  delete (globalThis as { holdfastRedis?: unknown }).holdfastRedis;
  delete (globalThis as { holdfastExamBus?: unknown }).holdfastExamBus;
  delete (globalThis as { holdfastRedisBreaker?: unknown }).holdfastRedisBreaker;
});

describe("the live bus with its Redis killed", () => {
  it("a reader is not held while the subscriber connection is lost, and hears this process; after Redis returns it waits for the acknowledgement again", async () => {
    const before = subscribeExam(randomUUID(), () => undefined);
    await whenLive(before.live);
    expect(subscriberStatus()).toBe("ready");

    redis.kill("SIGKILL");
    await waitUntil(() => subscriberStatus() === "reconnecting");
    // Not the breaker's doing: nothing has failed through it yet.
    expect(redisBreaker().isOpen()).toBe(false);

    const [examId, attemptId] = [randomUUID(), randomUUID()];
    const heard: unknown[] = [];
    const page = subscribeAttemptSignals(examId, attemptId, (message) => void heard.push(message));
    const started = Date.now();
    await whenLive(page.live);
    expect(Date.now() - started).toBeLessThan(SUBSCRIPTION_WAIT_MS / 2);
    publishExamMessage({ type: "signal", examId, attemptId, signal: "paused" });
    await waitUntil(() => heard.length > 0, 2_000);
    expect(heard).toEqual([{ type: "signal", examId, attemptId, signal: "paused" }]);
    page();
    before();

    redis = startRedisServer(port);
    await waitUntil(() => subscriberStatus() === "ready", 20_000);
    const client = (await getRedis())!;
    await waitUntil(() => client.status === "ready", 20_000);
    const again = randomUUID();
    const dashboard = subscribeExam(again, () => undefined);
    await whenLive(dashboard.live);
    // Live means acknowledged: a PUBLISH from the other connection counts this process's subscriber.
    expect(await client.publish(redisKeys.examChannel(again), JSON.stringify({ type: "change" }))).toBe(1);
    dashboard();
  }, 60_000);
});
