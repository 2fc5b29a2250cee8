import { randomUUID } from "node:crypto";

import { beforeAll, describe, expect, it } from "vitest";

import { db } from "@/lib/server/db/client";
import { parseLiveHeartbeat } from "@/lib/server/heartbeats/live-heartbeat";
import { getRedis } from "@/lib/server/redis/client";
import { redisKeys } from "@/lib/server/redis/keys";
import { heartbeat, startedAttempt, submit } from "@/test-support/server/attempts";

import { markDeviceConnected, markDeviceDisconnected } from "./device-presence";
import { subscribeExam, type ExamMessage } from "./exam-bus";
import { busSettled } from "@/test-support/server/bus";

function spans(attemptId: string) {
  return db.deviceOfflineSpan.findMany({ where: { attemptId }, orderBy: { startedAt: "asc" } });
}

/** Makes the device's last heartbeat look `ms` older, in its live copy and its durable row. */
async function ageLastHeartbeat(attemptId: string, deviceId: string, ms: number): Promise<Date> {
  const client = (await getRedis())!;
  const key = redisKeys.heartbeats(attemptId);
  const live = parseLiveHeartbeat(await client.hget(key, deviceId))!;
  const receivedAt = live.receivedAt - ms;
  await client.hset(key, deviceId, JSON.stringify({ ...live, receivedAt, persistedAt: receivedAt }));
  await db.deviceHeartbeat.update({
    where: { attemptId_deviceId: { attemptId, deviceId } },
    data: { receivedAt: new Date(receivedAt) },
  });
  return new Date(receivedAt);
}

/** The test's device ("laptop") of a started attempt, as a candidate stream names it. */
function laptopOf(attempt: Awaited<ReturnType<typeof startedAttempt>>) {
  return {
    examId: attempt.examId,
    enrollmentId: attempt.enrollmentId,
    attemptId: attempt.attemptId,
    deviceId: "laptop",
  };
}

beforeAll(async () => {
  const client = await getRedis();
  const until = Date.now() + 5_000;
  while (client?.status !== "ready" && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(client?.status).toBe("ready");
});

describe("offline spans kept by heartbeats", () => {
  it("opens a span when the device reports offline, keeps it while it says so, and closes it when it is back", async () => {
    const attempt = await startedAttempt();
    expect((await heartbeat(attempt)).status).toBe(200);
    expect(await spans(attempt.attemptId)).toEqual([]);

    expect((await heartbeat(attempt, { online: false, pending: 2, oldestPendingMs: 100 })).status).toBe(200);
    const [opened] = await spans(attempt.attemptId);
    expect(opened).toMatchObject({ deviceId: "laptop", cause: "reported", endedAt: null });

    expect((await heartbeat(attempt, { online: false, pending: 3, oldestPendingMs: 5_000 })).status).toBe(200);
    expect(await spans(attempt.attemptId)).toHaveLength(1);

    expect((await heartbeat(attempt)).status).toBe(200);
    const [closed, ...rest] = await spans(attempt.attemptId);
    expect(rest).toEqual([]);
    expect(closed!.startedAt).toEqual(opened!.startedAt);
    expect(closed!.endedAt!.getTime()).toBeGreaterThanOrEqual(opened!.startedAt.getTime());
  });

  it("records a silence longer than 45 s as a closed 'unreachable' span, from the live copy or the durable row", async () => {
    const attempt = await startedAttempt();
    expect((await heartbeat(attempt)).status).toBe(200);
    const lastHeard = await ageLastHeartbeat(attempt.attemptId, "laptop", 60_000);
    expect((await heartbeat(attempt)).status).toBe(200);
    const [silence] = await spans(attempt.attemptId);
    expect(silence).toMatchObject({ cause: "unreachable", startedAt: lastHeard });
    expect(silence!.endedAt!.getTime() - lastHeard.getTime()).toBeGreaterThanOrEqual(60_000);

    // The live copy expired (silent for more than its TTL): the durable row tells when it was last heard.
    const older = await ageLastHeartbeat(attempt.attemptId, "laptop", 300_000);
    await (await getRedis())!.del(redisKeys.heartbeats(attempt.attemptId));
    expect((await heartbeat(attempt)).status).toBe(200);
    const all = await spans(attempt.attemptId);
    expect(all).toHaveLength(2);
    expect(all[0]).toMatchObject({ cause: "unreachable", startedAt: older });

    // A heartbeat inside 45 s adds nothing.
    expect((await heartbeat(attempt)).status).toBe(200);
    expect(await spans(attempt.attemptId)).toHaveLength(2);
  });

  it("a closed channel opens a 'disconnected' span that the next online heartbeat (or a reconnect) closes", async () => {
    const attempt = await startedAttempt();
    const device = laptopOf(attempt);
    expect((await heartbeat(attempt)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await markDeviceDisconnected(device);
    // A second close of the same device (two instances, two tabs) makes no second span.
    await markDeviceDisconnected(device);
    expect(await spans(attempt.attemptId)).toMatchObject([{ cause: "disconnected", endedAt: null }]);

    expect((await heartbeat(attempt)).status).toBe(200);
    expect((await spans(attempt.attemptId))[0]!.endedAt).not.toBeNull();

    await markDeviceDisconnected(device);
    expect((await spans(attempt.attemptId)).filter((span) => span.endedAt === null)).toHaveLength(1);
    await markDeviceConnected(device);
    const all = await spans(attempt.attemptId);
    expect(all).toHaveLength(2);
    expect(all.every((span) => span.endedAt !== null)).toBe(true);
    expect(await (await getRedis())!.hget(redisKeys.heartbeats(attempt.attemptId), "presence:laptop")).toBeNull();
  });

  it("a channel closed after the submission opens no span (the candidate left a finished exam)", async () => {
    const attempt = await startedAttempt();
    const device = laptopOf(attempt);
    expect((await submit(attempt, { deviceId: "laptop", answers: [] }, randomUUID())).status).toBe(200);
    await markDeviceDisconnected(device);
    expect(await spans(attempt.attemptId)).toEqual([]);
    // The device's presence is still told: the dashboard knows the page went away.
    expect(await (await getRedis())!.hget(redisKeys.heartbeats(attempt.attemptId), "presence:laptop")).not.toBeNull();
  });

  it("tells the exam's live bus of every heartbeat", async () => {
    const attempt = await startedAttempt();
    await busSettled();
    const received: ExamMessage[] = [];
    const unsubscribe = subscribeExam(attempt.examId, (message) => received.push(message));
    try {
      // The subscription is made asynchronously on the Redis connection.
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (let index = 0; index < 3; index += 1) expect((await heartbeat(attempt, { clock: index })).status).toBe(200);
      const until = Date.now() + 2_000;
      while (received.length < 3 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(received).toEqual(
        Array.from({ length: 3 }, () => ({
          type: "change",
          examId: attempt.examId,
          enrollmentId: attempt.enrollmentId,
          kind: "heartbeat",
        })),
      );
    } finally {
      unsubscribe();
    }
  });
});
