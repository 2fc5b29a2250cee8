import { describe, expect, it } from "vitest";

import { POST as extendRoute } from "@/app/api/proctor/attempts/[attemptId]/extend/route";
import { db } from "@/lib/server/db/client";
import { parseLiveHeartbeat } from "@/lib/server/heartbeats/live-heartbeat";
import { subscribeAttemptSignals, subscribeExam, type ExamMessage } from "@/lib/server/live/exam-bus";
import { getRedis } from "@/lib/server/redis/client";
import { redisKeys } from "@/lib/server/redis/keys";
import { heartbeat, startedAttempt, type StartedAttempt } from "@/test-support/server/attempts";
import { adminToken } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { busSettled } from "@/test-support/server/bus";

/** A heartbeat from `deviceId` saying which deadline it shows (none: an older page that does not say). */
function showing(attempt: StartedAttempt, deviceId: string, deadline?: string) {
  return heartbeat(attempt, { deviceId, storagePersisted: true, ...(deadline === undefined ? {} : { deadline }) });
}

async function extend(attempt: StartedAttempt, seconds: number) {
  const response = await call(extendRoute, {
    params: { attemptId: attempt.attemptId },
    bearer: adminToken(),
    json: { seconds, reason: "wifi down" },
  });
  expect(response.status).toBe(200);
  return response.body as { extensionId: string; deadline: string; previousDeadline: string };
}

function extension(id: string) {
  return db.timeExtension.findUniqueOrThrow({
    where: { id },
    select: { acknowledgedAt: true, acknowledgedDeviceId: true },
  });
}

describe("acknowledging an extension through the heartbeat's deadline", () => {
  it("a heartbeat showing the new deadline acknowledges it once, stores what the device shows, and tells the dashboard", async () => {
    const attempt = await startedAttempt();
    await busSettled();
    const messages: ExamMessage[] = [];
    const unsubscribeChanges = subscribeExam(attempt.examId, (message) => messages.push(message));
    const unsubscribeSignals = subscribeAttemptSignals(attempt.examId, attempt.attemptId, (message) =>
      messages.push(message),
    );
    const unsubscribe = () => {
      unsubscribeChanges();
      unsubscribeSignals();
    };
    try {
      // Both subscriptions are set up asynchronously.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const given = await extend(attempt, 300);

      // Still showing the old deadline: not acknowledged, but what it shows is kept.
      expect((await showing(attempt, "laptop", given.previousDeadline)).status).toBe(200);
      expect(await extension(given.extensionId)).toEqual({ acknowledgedAt: null, acknowledgedDeviceId: null });
      const row = await db.deviceHeartbeat.findUniqueOrThrow({
        where: { attemptId_deviceId: { attemptId: attempt.attemptId, deviceId: "laptop" } },
      });
      expect(row.deadlineSeen?.toISOString()).toBe(given.previousDeadline);

      const before = Date.now();
      const response = await showing(attempt, "laptop", given.deadline);
      expect(response.status).toBe(200);
      expect(response.body.deadline).toBe(given.deadline);
      const acknowledged = await extension(given.extensionId);
      expect(acknowledged.acknowledgedDeviceId).toBe("laptop");
      expect(acknowledged.acknowledgedAt!.getTime()).toBeGreaterThanOrEqual(before - 1_000);
      const persisted = await db.deviceHeartbeat.findUniqueOrThrow({
        where: { attemptId_deviceId: { attemptId: attempt.attemptId, deviceId: "laptop" } },
      });
      expect(persisted.deadlineSeen?.toISOString()).toBe(given.deadline);
      const live = parseLiveHeartbeat(
        await (await getRedis())!.hget(redisKeys.heartbeats(attempt.attemptId), "laptop"),
      );
      expect(live?.deadline).toBe(given.deadline);

      // A second device showing it later does not take the acknowledgement over.
      await showing(attempt, "phone", given.deadline);
      expect(await extension(given.extensionId)).toEqual(acknowledged);

      await new Promise((resolve) => setTimeout(resolve, 200));
      const extended = messages.filter(
        (message) =>
          message.type === "change" && message.kind === "extended" && message.enrollmentId === attempt.enrollmentId,
      );
      // One for the extension, one for its acknowledgement.
      expect(extended).toHaveLength(2);
      expect(messages).toContainEqual({
        type: "signal",
        examId: attempt.examId,
        attemptId: attempt.attemptId,
        signal: "deadline",
      });
    } finally {
      unsubscribe();
    }
  });

  it("a later deadline acknowledges every earlier extension too; an earlier one acknowledges only what it covers", async () => {
    const attempt = await startedAttempt();
    const first = await extend(attempt, 60);
    const second = await extend(attempt, 120);
    await showing(attempt, "laptop", first.deadline);
    expect((await extension(first.extensionId)).acknowledgedDeviceId).toBe("laptop");
    expect((await extension(second.extensionId)).acknowledgedAt).toBeNull();
    await showing(attempt, "laptop", second.deadline);
    expect((await extension(second.extensionId)).acknowledgedDeviceId).toBe("laptop");
  });

  it("two devices reporting at once: each extension is acknowledged by exactly one of them", async () => {
    const attempt = await startedAttempt();
    const given = await extend(attempt, 60);
    await Promise.all(["a", "b", "c", "d"].map((device) => showing(attempt, device, given.deadline)));
    const acknowledged = await extension(given.extensionId);
    expect(["a", "b", "c", "d"]).toContain(acknowledged.acknowledgedDeviceId);
  });

  it("a heartbeat without a deadline (an older page) acknowledges nothing and keeps the deadline last seen", async () => {
    const attempt = await startedAttempt();
    const given = await extend(attempt, 60);
    await showing(attempt, "laptop", given.previousDeadline);
    await showing(attempt, "laptop");
    expect((await extension(given.extensionId)).acknowledgedAt).toBeNull();
    const row = await db.deviceHeartbeat.findUniqueOrThrow({
      where: { attemptId_deviceId: { attemptId: attempt.attemptId, deviceId: "laptop" } },
    });
    expect(row.deadlineSeen?.toISOString()).toBe(given.previousDeadline);
  });

  it("a malformed deadline: 422 naming the field", async () => {
    const attempt = await startedAttempt();
    const response = await showing(attempt, "laptop", "soon");
    expect(response.status).toBe(422);
    expect(response.body.error.details.issues[0].path).toBe("deadline");
  });
});
