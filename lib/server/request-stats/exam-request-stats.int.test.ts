// Per-exam request statistics through the real route handlers, on the real Redis: every autosave, submit,
// replay, ALREADY_SUBMITTED answer and 429 is counted for its own exam, and several instances add up.
import { randomUUID } from "node:crypto";

import { afterEach, beforeAll, describe, expect, it } from "vitest";

import { createSyncLimiters, type SyncLimitSpecs } from "@/lib/server/limits/create-sync-limiters";
import { setSyncLimiters } from "@/lib/server/limits/sync-limiters";
import { getRedis } from "@/lib/server/redis/client";
import { redisKeys } from "@/lib/server/redis/keys";
import { autosave, heartbeat, startedAttempt, submit } from "@/test-support/server/attempts";

import {
  ExamRequestStats,
  flushExamRequestStats,
  minuteOf,
  readExamRequestStats,
  type MinuteCounts,
} from "./exam-request-stats";

async function useLimits(limits: Partial<SyncLimitSpecs>): Promise<void> {
  setSyncLimiters(createSyncLimiters({ redis: await getRedis(), namespace: `test-${randomUUID()}`, limits }));
}

/** The exam's counts over the whole window, summed. */
async function hour(
  examId: string,
): Promise<Omit<MinuteCounts, "autosaveBuckets" | "submitBuckets"> & { autosaveTimed: number; submitTimed: number }> {
  const minutes = (await readExamRequestStats([examId])).get(examId)!;
  const sum = (pick: (minute: MinuteCounts) => number) => minutes.reduce((total, minute) => total + pick(minute), 0);
  return {
    autosaves: sum((m) => m.autosaves),
    submits: sum((m) => m.submits),
    replays: sum((m) => m.replays),
    alreadySubmitted: sum((m) => m.alreadySubmitted),
    rateLimited: sum((m) => m.rateLimited),
    autosaveTimed: sum((m) => m.autosaveBuckets.reduce((a, b) => a + b, 0)),
    submitTimed: sum((m) => m.submitBuckets.reduce((a, b) => a + b, 0)),
  };
}

/** Lets the not-awaited read of a 409's body (ALREADY_SUBMITTED) finish. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

beforeAll(async () => {
  const client = await getRedis();
  const until = Date.now() + 5_000;
  while (client?.status !== "ready" && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(client?.status).toBe("ready");
});

afterEach(() => setSyncLimiters(null));

describe("per-exam request statistics", () => {
  it("counts autosaves, submits, a replay, an ALREADY_SUBMITTED and 429s for the right exam only", async () => {
    await useLimits({
      autosavePerAttempt: { points: 3, durationSeconds: 60 },
      heartbeatPerAttempt: { points: 1, durationSeconds: 60 },
    });
    const attempt = await startedAttempt();
    const bystander = await startedAttempt();
    const question = attempt.questions[2]!.id;

    for (let version = 1; version <= 4; version += 1) {
      await autosave(attempt, {
        deviceId: "laptop",
        answers: [{ questionId: question, value: `v${version}`, version }],
      });
    }
    expect((await heartbeat(attempt)).status).toBe(200);
    expect((await heartbeat(attempt)).status).toBe(429);
    const key = randomUUID();
    const body = { deviceId: "laptop", answers: [] };
    expect((await submit(attempt, body, key)).status).toBe(200);
    const replay = await submit(attempt, body, key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const again = await submit(attempt, body, randomUUID());
    expect(again.body.error.code).toBe("ALREADY_SUBMITTED");
    await autosave(bystander, {
      deviceId: "phone",
      answers: [{ questionId: bystander.questions[0]!.id, value: "a", version: 1 }],
    });
    await settle();

    const expected = {
      autosaves: 4,
      submits: 3,
      replays: 1,
      alreadySubmitted: 1,
      rateLimited: 2,
      autosaveTimed: 4,
      submitTimed: 3,
    };
    // Before an explicit flush (the timer may have sent some): Redis plus what this process has not sent.
    expect(await hour(attempt.examId)).toEqual(expected);
    expect(await hour(bystander.examId)).toMatchObject({ autosaves: 1, submits: 0, rateLimited: 0 });

    // After a flush the same numbers come from Redis, where every instance adds up.
    await flushExamRequestStats();
    const redis = (await getRedis())!;
    // The requests may straddle a minute boundary: look at this minute and the one before.
    const minute = minuteOf(Date.now());
    const stored = await redis.hgetall(redisKeys.examHealthMinute(attempt.examId, minute));
    const previous = await redis.hgetall(redisKeys.examHealthMinute(attempt.examId, minute - 1));
    expect(Number(stored["n:autosave"] ?? 0) + Number(previous["n:autosave"] ?? 0)).toBe(4);
    for (const [key, hash] of [
      [redisKeys.examHealthMinute(attempt.examId, minute), stored],
      [redisKeys.examHealthMinute(attempt.examId, minute - 1), previous],
    ] as const) {
      if (Object.keys(hash).length > 0) expect(await redis.ttl(key)).toBeGreaterThan(3600);
    }
    expect(await hour(attempt.examId)).toEqual(expected);
    expect(await redis.zscore(redisKeys.examHealthActive(), attempt.examId)).not.toBeNull();
  });

  it("two instances flushing to the same Redis add up", async () => {
    const redis = await getRedis();
    const examId = randomUUID();
    const now = Date.now();
    const first = new ExamRequestStats();
    const second = new ExamRequestStats();
    for (let index = 0; index < 3; index += 1)
      first.record({ examId, endpoint: "autosave", durationMs: 12, outcome: "ok", at: now });
    first.record({ examId, endpoint: "submit", durationMs: 90, outcome: "ok", at: now });
    second.record({ examId, endpoint: "autosave", durationMs: 700, outcome: "ok", at: now });
    second.record({ examId, endpoint: "submit", durationMs: 8, outcome: "replayed", at: now });
    second.record({ examId, endpoint: "heartbeat", durationMs: 1, outcome: "limited", at: now });
    second.recordAlreadySubmitted(examId, now);
    await Promise.all([first.flush(redis, now), second.flush(redis, now)]);

    // A third instance, which saw none of it, reads the sum.
    const window = (await new ExamRequestStats().read([examId], redis, now)).get(examId)!;
    expect(window.at(-1)).toMatchObject({ autosaves: 4, submits: 2, replays: 1, alreadySubmitted: 1, rateLimited: 1 });
    expect(window.at(-1)!.autosaveBuckets.reduce((a, b) => a + b, 0)).toBe(4);
    // Flushing again adds nothing: what was sent is no longer pending.
    await first.flush(redis, now);
    expect((await new ExamRequestStats().read([examId], redis, now)).get(examId)!.at(-1)!.autosaves).toBe(4);
    expect(await new ExamRequestStats().activeExamIds(redis, now)).toContain(examId);
  });
});
