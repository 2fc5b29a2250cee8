// Heartbeats with Redis gone: REDIS_URL points at a port where nothing listens, so there is no live
// copy and every heartbeat must reach Postgres (and the heartbeat limit falls back to memory).
import { describe, expect, it } from "vitest";

process.env.REDIS_URL = "redis://127.0.0.1:1";
delete (globalThis as { holdfastRedis?: unknown }).holdfastRedis;
delete (globalThis as { holdfastSyncLimiters?: unknown }).holdfastSyncLimiters;

const { db } = await import("@/lib/server/db/client");
const { startedAttempt } = await import("@/test-support/server/attempts");
const { call } = await import("@/test-support/server/http");
const { getRedis } = await import("@/lib/server/redis/client");
const { POST: heartbeatRoute } = await import("./route");

const beat = {
  deviceId: "laptop",
  online: true,
  pending: 0,
  oldestPendingMs: 0,
  lastAckRevision: 0,
  clock: 0,
  consecutiveFailures: 0,
};

describe("heartbeat with Redis down", () => {
  it("really has no Redis", async () => {
    const client = await getRedis();
    // Give the lazy connection time to fail rather than catching it before it tried.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(client?.status).not.toBe("ready");
    expect(client?.options.port).toBe(1);
  });

  it("writes every heartbeat to Postgres, keeping firstSeenAt", async () => {
    const attempt = await startedAttempt();
    const send = (body: typeof beat) =>
      call(heartbeatRoute, { params: { attemptId: attempt.attemptId }, cookie: attempt.cookie, json: body });

    const first = await send(beat);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: "in_progress", revision: 0 });
    const written = await db.deviceHeartbeat.findUniqueOrThrow({
      where: { attemptId_deviceId: { attemptId: attempt.attemptId, deviceId: "laptop" } },
    });
    expect(written).toMatchObject({ online: true, clock: 0, storagePersisted: null });

    // Not material, and well inside 30 s: with Redis away it is written anyway.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await send({ ...beat, clock: 4 })).status).toBe(200);
    const rewritten = await db.deviceHeartbeat.findUniqueOrThrow({
      where: { attemptId_deviceId: { attemptId: attempt.attemptId, deviceId: "laptop" } },
    });
    expect(rewritten.clock).toBe(4);
    expect(rewritten.firstSeenAt).toEqual(written.firstSeenAt);
    expect(rewritten.receivedAt.getTime()).toBeGreaterThan(written.receivedAt.getTime());
  });
});
