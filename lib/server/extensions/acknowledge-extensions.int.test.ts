import { describe, expect, it } from "vitest";

import { POST as heartbeatRoute } from "@/app/api/attempts/[attemptId]/heartbeat/route";
import { POST as extendRoute } from "@/app/api/proctor/attempts/[attemptId]/extend/route";
import { db } from "@/lib/server/db/client";
import { parseLiveHeartbeat } from "@/lib/server/heartbeats/live-heartbeat";
import { subscribeExam, type ExamMessage } from "@/lib/server/live/exam-bus";
import { getRedis } from "@/lib/server/redis/client";
import { redisKeys } from "@/lib/server/redis/keys";
import { startedAttempt, type StartedAttempt } from "@/lib/server/testing/attempts";
import { adminToken } from "@/lib/server/testing/fixtures";
import { call } from "@/lib/server/testing/http";

const beat = { online: true, pending: 0, oldestPendingMs: 0, lastAckRevision: 0, clock: 0, consecutiveFailures: 0, storagePersisted: true };

function heartbeat(attempt: StartedAttempt, deviceId: string, deadline?: string) {
  return call(heartbeatRoute, {
    params: { attemptId: attempt.attemptId },
    cookie: attempt.cookie,
    json: { ...beat, deviceId, ...(deadline === undefined ? {} : { deadline }) },
  });
}

async function extend(attempt: StartedAttempt, seconds: number) {
  const response = await call(extendRoute, { params: { attemptId: attempt.attemptId }, bearer: adminToken(), json: { seconds, reason: "wifi down" } });
  expect(response.status).toBe(200);
  return response.body as { extensionId: string; deadline: string; previousDeadline: string };
}

function extension(id: string) {
  return db.timeExtension.findUniqueOrThrow({ where: { id }, select: { acknowledgedAt: true, acknowledgedDeviceId: true } });
}

describe("acknowledging an extension through the heartbeat's deadline", () => {
  it("a heartbeat showing the new deadline acknowledges it once, stores what the device shows, and tells the dashboard", async () => {
    const attempt = await startedAttempt();
    const messages: ExamMessage[] = [];
    const unsubscribe = subscribeExam(attempt.examId, (message) => messages.push(message));
    try {
      const given = await extend(attempt, 300);

      // Still showing the old deadline: not acknowledged, but what it shows is kept.
      expect((await heartbeat(attempt, "laptop", given.previousDeadline)).status).toBe(200);
      expect(await extension(given.extensionId)).toEqual({ acknowledgedAt: null, acknowledgedDeviceId: null });
      const row = await db.deviceHeartbeat.findUniqueOrThrow({ where: { attemptId_deviceId: { attemptId: attempt.attemptId, deviceId: "laptop" } } });
      expect(row.deadlineSeen?.toISOString()).toBe(given.previousDeadline);

      const before = Date.now();
      const response = await heartbeat(attempt, "laptop", given.deadline);
      expect(response.status).toBe(200);
      expect(response.body.deadline).toBe(given.deadline);
      const acknowledged = await extension(given.extensionId);
      expect(acknowledged.acknowledgedDeviceId).toBe("laptop");
      expect(acknowledged.acknowledgedAt!.getTime()).toBeGreaterThanOrEqual(before - 1_000);
      const persisted = await db.deviceHeartbeat.findUniqueOrThrow({ where: { attemptId_deviceId: { attemptId: attempt.attemptId, deviceId: "laptop" } } });
      expect(persisted.deadlineSeen?.toISOString()).toBe(given.deadline);
      const live = parseLiveHeartbeat(await (await getRedis())!.hget(redisKeys.heartbeats(attempt.attemptId), "laptop"));
      expect(live?.deadline).toBe(given.deadline);

      // A second device showing it later does not take the acknowledgement over.
      await heartbeat(attempt, "phone", given.deadline);
      expect(await extension(given.extensionId)).toEqual(acknowledged);

      await new Promise((resolve) => setTimeout(resolve, 200));
      const extended = messages.filter((message) => message.type === "change" && message.kind === "extended" && message.enrollmentId === attempt.enrollmentId);
      // One for the extension, one for its acknowledgement.
      expect(extended).toHaveLength(2);
      expect(messages).toContainEqual({ type: "signal", examId: attempt.examId, attemptId: attempt.attemptId, signal: "deadline" });
    } finally {
      unsubscribe();
    }
  });

  it("a later deadline acknowledges every earlier extension too; an earlier one acknowledges only what it covers", async () => {
    const attempt = await startedAttempt();
    const first = await extend(attempt, 60);
    const second = await extend(attempt, 120);
    await heartbeat(attempt, "laptop", first.deadline);
    expect((await extension(first.extensionId)).acknowledgedDeviceId).toBe("laptop");
    expect((await extension(second.extensionId)).acknowledgedAt).toBeNull();
    await heartbeat(attempt, "laptop", second.deadline);
    expect((await extension(second.extensionId)).acknowledgedDeviceId).toBe("laptop");
  });

  it("two devices reporting at once: each extension is acknowledged by exactly one of them", async () => {
    const attempt = await startedAttempt();
    const given = await extend(attempt, 60);
    await Promise.all(["a", "b", "c", "d"].map((device) => heartbeat(attempt, device, given.deadline)));
    const acknowledged = await extension(given.extensionId);
    expect(["a", "b", "c", "d"]).toContain(acknowledged.acknowledgedDeviceId);
  });

  it("a heartbeat without a deadline (an older page) acknowledges nothing and keeps the deadline last seen", async () => {
    const attempt = await startedAttempt();
    const given = await extend(attempt, 60);
    await heartbeat(attempt, "laptop", given.previousDeadline);
    await heartbeat(attempt, "laptop");
    expect((await extension(given.extensionId)).acknowledgedAt).toBeNull();
    const row = await db.deviceHeartbeat.findUniqueOrThrow({ where: { attemptId_deviceId: { attemptId: attempt.attemptId, deviceId: "laptop" } } });
    expect(row.deadlineSeen?.toISOString()).toBe(given.previousDeadline);
  });

  it("a malformed deadline: 422 naming the field", async () => {
    const attempt = await startedAttempt();
    const response = await heartbeat(attempt, "laptop", "soon");
    expect(response.status).toBe(422);
    expect(response.body.error.details.issues[0].path).toBe("deadline");
  });
});
