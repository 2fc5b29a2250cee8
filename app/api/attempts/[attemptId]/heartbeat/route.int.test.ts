import { randomUUID } from "node:crypto";

import { afterEach, beforeAll, describe, expect, it } from "vitest";

import { db } from "@/lib/server/db/client";
import { LIVE_HEARTBEAT_TTL_SECONDS, parseLiveHeartbeat } from "@/lib/server/heartbeats/live-heartbeat";
import { createSyncLimiters } from "@/lib/server/limits/create-sync-limiters";
import { setSyncLimiters } from "@/lib/server/limits/sync-limiters";
import { getRedis } from "@/lib/server/redis/client";
import { redisKeys } from "@/lib/server/redis/keys";
import {
  CANDIDATE_UNAUTHENTICATED,
  SESSION_ENDINGS,
  startedAttempt,
  submit,
  type StartedAttempt,
} from "@/test-support/server/attempts";
import { call } from "@/test-support/server/http";

import { POST as heartbeatRoute } from "./route";

const beat = {
  deviceId: "laptop",
  online: true,
  pending: 0,
  oldestPendingMs: 0,
  lastAckRevision: 0,
  clock: 0,
  consecutiveFailures: 0,
  storagePersisted: true,
};

function heartbeat(attempt: Pick<StartedAttempt, "attemptId" | "cookie">, body: unknown) {
  return call(heartbeatRoute, { params: { attemptId: attempt.attemptId }, cookie: attempt.cookie, json: body });
}

async function liveCopy(attemptId: string, deviceId: string) {
  const client = await getRedis();
  return parseLiveHeartbeat(await client!.hget(redisKeys.heartbeats(attemptId), deviceId));
}

function row(attemptId: string, deviceId: string) {
  return db.deviceHeartbeat.findUnique({ where: { attemptId_deviceId: { attemptId, deviceId } } });
}

beforeAll(async () => {
  // The client connects lazily; until it is ready, heartbeats go to Postgres alone (tested elsewhere).
  const client = await getRedis();
  const until = Date.now() + 5_000;
  while (client?.status !== "ready" && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(client?.status).toBe("ready");
});

afterEach(() => setSyncLimiters(null));

describe("POST /api/attempts/{attemptId}/heartbeat", () => {
  it("keeps the latest heartbeat in Redis (with an expiry) and in Postgres, and answers with the attempt's time facts", async () => {
    const attempt = await startedAttempt();
    const before = Date.now();
    const response = await heartbeat(attempt, {
      ...beat,
      pending: 2,
      oldestPendingMs: 1_200,
      lastAckRevision: 3,
      clock: 8,
    });

    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual([
      "deadline",
      "pauseReason",
      "pausedAt",
      "revision",
      "serverTime",
      "status",
    ]);
    expect(response.body).toMatchObject({ revision: 0, status: "in_progress", pausedAt: null, pauseReason: null });
    expect(Date.parse(response.body.serverTime)).toBeGreaterThanOrEqual(before);
    const stored = await db.attempt.findUniqueOrThrow({ where: { id: attempt.attemptId }, select: { deadline: true } });
    expect(response.body.deadline).toBe(stored.deadline.toISOString());

    const live = await liveCopy(attempt.attemptId, "laptop");
    expect(live).toMatchObject({
      online: true,
      pending: 2,
      oldestPendingMs: 1_200,
      lastAckRevision: 3,
      clock: 8,
      consecutiveFailures: 0,
      storagePersisted: true,
    });
    const ttl = await (await getRedis())!.ttl(redisKeys.heartbeats(attempt.attemptId));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(LIVE_HEARTBEAT_TTL_SECONDS);

    const durable = await row(attempt.attemptId, "laptop");
    expect(durable).toMatchObject({
      online: true,
      pending: 2,
      oldestPendingMs: 1_200,
      lastAckRevision: 3,
      clock: 8,
      consecutiveFailures: 0,
      storagePersisted: true,
    });
    expect(durable!.firstSeenAt.getTime()).toBe(durable!.receivedAt.getTime());
  });

  it("two first heartbeats of a new device sent at once both land: one row, no 500 (the upsert is one statement)", async () => {
    const attempt = await startedAttempt();
    for (let round = 0; round < 5; round += 1) {
      const deviceId = `tablet-${round}`;
      const responses = await Promise.all([
        heartbeat(attempt, { ...beat, deviceId, pending: 1 }),
        heartbeat(attempt, { ...beat, deviceId, pending: 2 }),
      ]);
      expect(responses.map((response) => response.status)).toEqual([200, 200]);
      const rows = await db.deviceHeartbeat.findMany({ where: { attemptId: attempt.attemptId, deviceId } });
      expect(rows).toHaveLength(1);
      expect([1, 2]).toContain(rows[0]!.pending);
    }
  });

  it("writes Postgres only on a material change (or every 30 s), keeping firstSeenAt; Redis always has the latest", async () => {
    const attempt = await startedAttempt();
    await heartbeat(attempt, beat);
    const first = await row(attempt.attemptId, "laptop");

    // Only the clock moved: Redis sees it, Postgres is left alone.
    expect((await heartbeat(attempt, { ...beat, clock: 5, lastAckRevision: 2 })).status).toBe(200);
    expect((await liveCopy(attempt.attemptId, "laptop"))!.clock).toBe(5);
    expect(await row(attempt.attemptId, "laptop")).toEqual(first);

    // Unsynced work appears: Postgres hears of it at once.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await heartbeat(attempt, { ...beat, clock: 6, pending: 1, oldestPendingMs: 300 });
    const pending = await row(attempt.attemptId, "laptop");
    expect(pending).toMatchObject({ pending: 1, clock: 6 });
    expect(pending!.firstSeenAt).toEqual(first!.firstSeenAt);
    expect(pending!.receivedAt.getTime()).toBeGreaterThan(first!.receivedAt.getTime());

    // Going offline is material too; so is a second device.
    await heartbeat(attempt, { ...beat, clock: 6, pending: 1, oldestPendingMs: 900, online: false });
    expect((await row(attempt.attemptId, "laptop"))!.online).toBe(false);
    await heartbeat(attempt, { ...beat, deviceId: "phone", storagePersisted: null });
    expect(await row(attempt.attemptId, "phone")).toMatchObject({ online: true, storagePersisted: null });
    expect(await db.deviceHeartbeat.count({ where: { attemptId: attempt.attemptId } })).toBe(2);
  });

  it("tells a paused attempt's pause (a device whose event stream missed it learns it here)", async () => {
    const attempt = await startedAttempt();
    const pausedAt = new Date(Date.now() - 5_000);
    await db.attempt.update({
      where: { id: attempt.attemptId },
      data: { pausedAt, pauseReason: "Fire alarm" },
    });
    const response = await heartbeat(attempt, beat);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ pausedAt: pausedAt.toISOString(), pauseReason: "Fire alarm" });
  });

  it("accepts heartbeats for a submitted attempt and reports its status", async () => {
    const attempt = await startedAttempt();
    expect((await submit(attempt, { deviceId: "laptop", answers: [] }, randomUUID())).status).toBe(200);
    const response = await heartbeat(attempt, beat);
    expect(response.status).toBe(200);
    expect(response.body.status).toBe("submitted");
  });

  it("404 for another candidate's attempt or an unknown one, with nothing stored", async () => {
    const mine = await startedAttempt();
    const theirs = await startedAttempt();
    for (const attemptId of [theirs.attemptId, randomUUID()]) {
      const response = await heartbeat({ attemptId, cookie: mine.cookie }, beat);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe("NOT_FOUND");
      expect(await db.deviceHeartbeat.count({ where: { attemptId } })).toBe(0);
      expect(await (await getRedis())!.exists(redisKeys.heartbeats(attemptId))).toBe(0);
    }
  });

  it("422 with the path of each bad field, and 401 without a session; nothing stored", async () => {
    const attempt = await startedAttempt();
    const invalid = await heartbeat(attempt, {
      ...beat,
      deviceId: "no spaces allowed",
      pending: -1,
      clock: 2 ** 31,
      online: "yes",
      consecutiveFailures: 0.5,
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.code).toBe("VALIDATION_FAILED");
    const paths = invalid.body.error.details.issues.map((issue: { path: string }) => issue.path).sort();
    expect(paths).toEqual(["clock", "consecutiveFailures", "deviceId", "online", "pending"]);

    const missing = await heartbeat(attempt, { deviceId: "laptop" });
    expect(missing.status).toBe(422);

    const anonymous = await call(heartbeatRoute, { params: { attemptId: attempt.attemptId }, json: beat });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe("UNAUTHENTICATED");

    expect(await db.deviceHeartbeat.count({ where: { attemptId: attempt.attemptId } })).toBe(0);
    expect(await (await getRedis())!.exists(redisKeys.heartbeats(attempt.attemptId))).toBe(0);
  });

  // A session this process already knows is checked in the statement that reads the attempt (ADR 021). Each case
  // warms that knowledge with a heartbeat that succeeds, ends the session behind the process's back, and sends the
  // first request after: 401 before any other error, and nothing stored.
  describe("a session ended since this process last read it", () => {
    const requests: Record<string, (attempt: StartedAttempt, other: StartedAttempt) => ReturnType<typeof heartbeat>> = {
      "a valid heartbeat": (attempt) => heartbeat(attempt, { ...beat, deviceId: "phone" }),
      "a heartbeat with bad fields": (attempt) => heartbeat(attempt, { ...beat, deviceId: "phone", pending: -1 }),
      "someone else's attempt": (attempt, other) =>
        heartbeat({ attemptId: other.attemptId, cookie: attempt.cookie }, { ...beat, deviceId: "phone" }),
      "no such attempt": (attempt) =>
        heartbeat({ attemptId: randomUUID(), cookie: attempt.cookie }, { ...beat, deviceId: "phone" }),
    };
    for (const [how, end] of Object.entries(SESSION_ENDINGS)) {
      for (const [what, send] of Object.entries(requests)) {
        it(`${how}, then ${what} → 401 UNAUTHENTICATED, nothing stored`, async () => {
          const attempt = await startedAttempt();
          const other = await startedAttempt();
          expect((await heartbeat(attempt, beat)).status).toBe(200);
          await end(attempt);
          const response = await send(attempt, other);
          expect(response.status).toBe(401);
          expect(response.body).toEqual(CANDIDATE_UNAUTHENTICATED);
          for (const attemptId of [attempt.attemptId, other.attemptId]) {
            expect(await row(attemptId, "phone")).toBeNull();
            expect(await liveCopy(attemptId, "phone")).toBeNull();
          }
        });
      }
    }

    it("a session still valid keeps beating, and the answer carries the attempt's facts", async () => {
      const attempt = await startedAttempt();
      for (let clock = 0; clock < 3; clock += 1) {
        const response = await heartbeat(attempt, { ...beat, clock });
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ status: "in_progress", revision: 0, pausedAt: null, pauseReason: null });
        expect(new Date(response.body.deadline).getTime()).toBeGreaterThan(Date.now());
      }
      expect((await liveCopy(attempt.attemptId, "laptop"))?.clock).toBe(2);
    });
  });

  it("429 with Retry-After past the heartbeat limit, without storing the limited heartbeat", async () => {
    setSyncLimiters(
      createSyncLimiters({
        redis: await getRedis(),
        namespace: `test-${randomUUID()}`,
        limits: { heartbeatPerAttempt: { points: 2, durationSeconds: 60 } },
      }),
    );
    const attempt = await startedAttempt();
    expect((await heartbeat(attempt, beat)).status).toBe(200);
    expect((await heartbeat(attempt, { ...beat, clock: 1 })).status).toBe(200);
    const limited = await heartbeat(attempt, { ...beat, clock: 2, online: false });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited.body.error.code).toBe("RATE_LIMITED");
    expect((await liveCopy(attempt.attemptId, "laptop"))!.clock).toBe(1);
    expect((await row(attempt.attemptId, "laptop"))!.online).toBe(true);
  });
});
