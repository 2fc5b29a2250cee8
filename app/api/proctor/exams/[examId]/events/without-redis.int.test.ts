// The live dashboard with Redis gone (single instance): REDIS_URL points at a port where nothing listens,
// so the exam bus delivers in this process, the facts come from Postgres alone, and presence is kept here.
import { describe, expect, it } from "vitest";

process.env.REDIS_URL = "redis://127.0.0.1:1";
delete (globalThis as { holdfastRedis?: unknown }).holdfastRedis;
delete (globalThis as { holdfastExamBus?: unknown }).holdfastExamBus;
delete (globalThis as { holdfastExamFeeds?: unknown }).holdfastExamFeeds;
delete (globalThis as { holdfastSyncLimiters?: unknown }).holdfastSyncLimiters;

const { db } = await import("@/lib/server/db/client");
const { getRedis } = await import("@/lib/server/redis/client");
const { startedAttempt } = await import("@/test-support/server/attempts");
const { adminToken } = await import("@/test-support/server/fixtures");
const { call } = await import("@/test-support/server/http");
const { readSse } = await import("@/test-support/server/sse");
const { loadCandidateFacts } = await import("@/lib/server/live/load-candidate-facts");
const { POST: heartbeatRoute } = await import("@/app/api/attempts/[attemptId]/heartbeat/route");
const { GET: attemptEventsRoute } = await import("@/app/api/attempts/[attemptId]/events/route");
const { GET: snapshotRoute } = await import("../candidates/route");
const { GET: eventsRoute } = await import("./route");

type Facts = {
  enrollmentId: string;
  devices: {
    deviceId: string;
    online: boolean;
    pending: number;
    disconnectedAt: number | null;
    offlineSince: number | null;
  }[];
};

const beat = {
  deviceId: "laptop",
  online: true,
  pending: 0,
  oldestPendingMs: 0,
  lastAckRevision: 0,
  clock: 0,
  consecutiveFailures: 0,
};

describe("the proctor's live view with Redis down", () => {
  it("really has no Redis", async () => {
    const client = await getRedis();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(client?.status).not.toBe("ready");
    expect(client?.options.port).toBe(1);
  });

  it("streams a heartbeat's candidate from Postgres within about a second, and the snapshot agrees", async () => {
    const attempt = await startedAttempt();
    const request = new Request(`http://holdfast.test/api/proctor/exams/${attempt.examId}/events`, {
      headers: { authorization: `Bearer ${adminToken()}` },
    });
    const reader = readSse(await eventsRoute(request, { params: Promise.resolve({ examId: attempt.examId }) }));
    try {
      await reader.next((message) => message.event === "ready");
      const sentAt = Date.now();
      const response = await call(heartbeatRoute, {
        params: { attemptId: attempt.attemptId },
        cookie: attempt.cookie,
        json: { ...beat, online: false, pending: 2, oldestPendingMs: 50 },
      });
      expect(response.status).toBe(200);
      const event = await reader.next((message) => message.event === "candidates", { timeoutMs: 1_500 });
      expect(Date.now() - sentAt).toBeLessThan(1_500);
      const [facts] = (event.data as { candidates: Facts[] }).candidates;
      expect(facts!.enrollmentId).toBe(attempt.enrollmentId);
      expect(facts!.devices[0]).toMatchObject({ deviceId: "laptop", online: false, pending: 2 });
      expect(facts!.devices[0]!.offlineSince).not.toBeNull();

      const snapshot = await call(snapshotRoute, { params: { examId: attempt.examId }, bearer: adminToken() });
      expect(snapshot.status).toBe(200);
      expect(snapshot.body.counters).toMatchObject({ total: 1, inProgress: 1, offline: 1, pending: 1 });
    } finally {
      await reader.cancel();
    }
  });

  it("keeps presence in this process: a closed candidate stream marks the device disconnected", async () => {
    const attempt = await startedAttempt();
    expect(
      (await call(heartbeatRoute, { params: { attemptId: attempt.attemptId }, cookie: attempt.cookie, json: beat }))
        .status,
    ).toBe(200);
    const request = new Request(`http://holdfast.test/api/attempts/${attempt.attemptId}/events?deviceId=laptop`, {
      headers: { cookie: attempt.cookie },
    });
    const reader = readSse(
      await attemptEventsRoute(request, { params: Promise.resolve({ attemptId: attempt.attemptId }) }),
    );
    await reader.next((message) => message.event === "ready");
    await reader.cancel();

    const until = Date.now() + 2_000;
    let devices: Facts["devices"] = [];
    while (Date.now() < until) {
      devices = (await loadCandidateFacts({ examId: attempt.examId }))[0]!.devices;
      if (devices[0]?.disconnectedAt) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(devices[0]!.disconnectedAt).not.toBeNull();
    expect(
      await db.deviceOfflineSpan.count({
        where: { attemptId: attempt.attemptId, cause: "disconnected", endedAt: null },
      }),
    ).toBe(1);
  });
});
