import { randomUUID } from "node:crypto";

import { beforeAll, describe, expect, it } from "vitest";

import { GET as snapshotRoute } from "@/app/api/proctor/exams/[examId]/candidates/route";
import { db } from "@/lib/server/db/client";
import { parseLiveHeartbeat } from "@/lib/server/heartbeats/live-heartbeat";
import { getRedis } from "@/lib/server/redis/client";
import { redisKeys } from "@/lib/server/redis/keys";
import type { CandidatesSnapshot } from "@/lib/shared/schemas/proctor";
import { autosave, heartbeat, startedAttempt, submit, type StartedAttempt } from "@/test-support/server/attempts";
import { adminToken } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

/** The device status an autosave carries in place of a heartbeat (ADR 022; docs/sync-protocol.md, "Autosave"). */

const status = {
  online: true,
  pending: 1,
  oldestPendingMs: 800,
  lastAckRevision: 0,
  clock: 3,
  consecutiveFailures: 0,
  storagePersisted: true,
};

async function liveCopy(attemptId: string, deviceId: string) {
  const client = await getRedis();
  return parseLiveHeartbeat(await client!.hget(redisKeys.heartbeats(attemptId), deviceId));
}

function row(attemptId: string, deviceId: string) {
  return db.deviceHeartbeat.findUnique({ where: { attemptId_deviceId: { attemptId, deviceId } } });
}

async function dashboardRow(attempt: StartedAttempt) {
  const response = await call<CandidatesSnapshot>(snapshotRoute, {
    params: { examId: attempt.examId },
    bearer: adminToken(),
  });
  expect(response.status).toBe(200);
  return response.body.candidates.find((candidate) => candidate.enrollmentId === attempt.enrollmentId)!;
}

function delta(attempt: StartedAttempt, value: string, version: number) {
  return { deviceId: "laptop", answers: [{ questionId: attempt.questions[2]!.id, value, version }] };
}

beforeAll(async () => {
  const client = await getRedis();
  const until = Date.now() + 5_000;
  while (client?.status !== "ready" && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(client?.status).toBe("ready");
});

describe("an autosave carrying the device's status", () => {
  it("is kept as a heartbeat's would be: live copy, durable row, and the proctor's dashboard", async () => {
    const attempt = await startedAttempt();
    const before = Date.now();
    const response = await autosave(attempt, { ...delta(attempt, "first", 1), device: status });
    expect(response.status).toBe(200);
    expect(response.body.results[0].status).toBe("applied");

    const live = await liveCopy(attempt.attemptId, "laptop");
    // lastAckRevision is the revision this very autosave made: the status is as the device stands once answered.
    expect(live).toMatchObject({ ...status, lastAckRevision: response.body.revision });
    expect(live!.receivedAt).toBeGreaterThanOrEqual(before);
    expect(await row(attempt.attemptId, "laptop")).toMatchObject({ online: true, pending: 1, clock: 3 });

    expect((await dashboardRow(attempt)).status).toMatchObject({
      connection: "online",
      sync: "pending",
      pending: 1,
      devicesUsed: 1,
    });

    // The next one, saying all is sent, turns the dashboard synced without any heartbeat.
    const next = await autosave(attempt, { ...delta(attempt, "second", 4), device: { ...status, pending: 0 } });
    expect(next.status).toBe(200);
    expect((await dashboardRow(attempt)).status).toMatchObject({ connection: "online", sync: "synced", pending: 0 });
  });

  it("is kept for an autosave that applied nothing (a duplicate), which still proves the device is there", async () => {
    const attempt = await startedAttempt();
    expect((await autosave(attempt, delta(attempt, "once", 1))).status).toBe(200);
    expect(await liveCopy(attempt.attemptId, "laptop")).toBeNull(); // without `device`: nothing kept, as before
    const again = await autosave(attempt, { ...delta(attempt, "once", 1), device: { ...status, pending: 0 } });
    expect(again.status).toBe(200);
    expect(again.body.results[0].status).toBe("duplicate");
    expect(await liveCopy(attempt.attemptId, "laptop")).toMatchObject({ pending: 0, lastAckRevision: 1 });
  });

  it("keeps the deadline the device shows, as a heartbeat does (how an extension is acknowledged)", async () => {
    const attempt = await startedAttempt();
    const shown = (await heartbeat(attempt, { deviceId: "laptop" })).body.deadline as string;
    const response = await autosave(attempt, { ...delta(attempt, "x", 1), device: { ...status, deadline: shown } });
    expect(response.status).toBe(200);
    expect((await row(attempt.attemptId, "laptop"))!.deadlineSeen?.toISOString()).toBe(shown);
  });

  it("a bad status → 422 naming its field; neither the answers nor the status are kept", async () => {
    const attempt = await startedAttempt();
    const bad: [unknown, string][] = [
      [{ ...status, pending: -1 }, "device.pending"],
      [{ ...status, online: "yes" }, "device.online"],
      [{ ...status, clock: 1.5 }, "device.clock"],
      [{ ...status, deadline: "tomorrow" }, "device.deadline"],
      [{ pending: 0 }, "device.online"],
      ["laptop", "device"],
    ];
    for (const [device, path] of bad) {
      const response = await autosave(attempt, { ...delta(attempt, "never", 1), device });
      expect(response.status, JSON.stringify(device)).toBe(422);
      expect(response.body.error.code).toBe("VALIDATION_FAILED");
      expect(response.body.error.details.issues.map((issue: { path: string }) => issue.path)).toContain(path);
    }
    expect(await db.answer.count({ where: { attemptId: attempt.attemptId } })).toBe(0);
    expect(await liveCopy(attempt.attemptId, "laptop")).toBeNull();
    expect(await row(attempt.attemptId, "laptop")).toBeNull();
  });

  it("a refused autosave (the attempt is submitted) keeps no status: it would claim a save that did not happen", async () => {
    const attempt = await startedAttempt();
    expect((await submit(attempt, { deviceId: "laptop", answers: [] }, randomUUID())).status).toBe(200);
    const late = await autosave(attempt, { ...delta(attempt, "late", 2), device: { ...status, pending: 0 } });
    expect(late.status).toBe(409);
    expect(await liveCopy(attempt.attemptId, "laptop")).toBeNull();
    expect(await row(attempt.attemptId, "laptop")).toBeNull();
  });
});
