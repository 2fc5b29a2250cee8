// Backpressure through the real endpoints, on the real Redis: the limited requests get a 429 the client
// can show and honour, and change nothing; autosaves can never use up the capacity kept for submits.
import { randomUUID } from "node:crypto";

import { afterEach, beforeAll, describe, expect, it } from "vitest";

import { db } from "@/lib/server/db/client";
import { getRedis } from "@/lib/server/redis/client";
import { redisKeys } from "@/lib/server/redis/keys";
import { autosave, startedAttempt, submit, type StartedAttempt } from "@/test-support/server/attempts";
import type { CallResult } from "@/test-support/server/http";

import { createSyncLimiters, DEFAULT_SYNC_LIMITS, type SyncLimitSpecs } from "./create-sync-limiters";
import { setSyncLimiters } from "./sync-limiters";

/** Limiters on the shared Redis under a namespace of their own, so no other test's counters move. */
async function useLimits(limits: Partial<SyncLimitSpecs>): Promise<string> {
  const namespace = `test-${randomUUID()}`;
  setSyncLimiters(createSyncLimiters({ redis: await getRedis(), namespace, limits }));
  return namespace;
}

async function state(attemptId: string) {
  const [attempt, answers, submissions, late] = await Promise.all([
    db.attempt.findUniqueOrThrow({ where: { id: attemptId }, select: { status: true, revision: true } }),
    db.answer.findMany({
      where: { attemptId },
      select: { questionId: true, value: true, version: true, deviceId: true },
      orderBy: { questionId: "asc" },
    }),
    db.submission.count({ where: { attemptId } }),
    db.lateAnswer.count({ where: { attemptId } }),
  ]);
  return { attempt, answers, submissions, late };
}

function expectRateLimited(response: CallResult) {
  expect(response.status).toBe(429);
  const seconds = Number(response.headers.get("retry-after"));
  expect(Number.isInteger(seconds)).toBe(true);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(response.body).toEqual({
    error: {
      code: "RATE_LIMITED",
      message: `Saved on your device; the server is busy; retrying in ${seconds} s.`,
      details: { retryAfterSeconds: seconds },
    },
  });
}

function edit(attempt: StartedAttempt, version: number) {
  return { deviceId: "laptop", answers: [{ questionId: attempt.questions[2]!.id, value: `edit ${version}`, version }] };
}

beforeAll(async () => {
  const client = await getRedis();
  const until = Date.now() + 5_000;
  while (client?.status !== "ready" && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(client?.status).toBe("ready");
});

afterEach(() => setSyncLimiters(null));

describe("autosave rate limit", () => {
  it("a burst for one attempt gets 429 with Retry-After and the RATE_LIMITED body; the limited saves change nothing", async () => {
    const namespace = await useLimits({ autosavePerAttempt: { points: 5, durationSeconds: 60 } });
    const attempt = await startedAttempt();

    const versions = Array.from({ length: 15 }, (_, i) => i + 1);
    const burst = await Promise.all(versions.map((version) => autosave(attempt, edit(attempt, version))));
    const accepted = burst.filter((response) => response.status === 200);
    const limited = burst.filter((response) => response.status !== 200);
    const acceptedVersions = versions.filter((_, i) => burst[i]!.status === 200);
    expect(accepted).toHaveLength(5);
    expect(limited).toHaveLength(10);
    for (const response of limited) expectRateLimited(response);

    // Only the accepted saves reached Postgres: one revision per applying request, and the stored edit
    // is the greatest accepted one, although limited requests carried greater versions.
    const appliedRequests = accepted.filter((response) => response.body.results[0].status === "applied");
    const after = await state(attempt.attemptId);
    expect(after.attempt.revision).toBe(appliedRequests.length);
    expect(after.answers).toHaveLength(1);
    expect(after.answers[0]!.version).toBe(Math.max(...acceptedVersions));
    expect(after.late).toBe(0);

    // A later, greater edit while still limited: refused, paper unchanged.
    expectRateLimited(await autosave(attempt, edit(attempt, 1_000)));
    expect(await state(attempt.attemptId)).toEqual(after);

    // The counters live in Redis, shared by every instance.
    const counter = await (await getRedis())!.get(
      `${redisKeys.rateLimit(namespace, "autosavePerAttempt")}:${attempt.enrollmentId}`,
    );
    expect(Number(counter)).toBeGreaterThanOrEqual(16);
  });

  it("the production limits let a healthy client through and stop a runaway one", async () => {
    const attempt = await startedAttempt();
    const { autosavePerAttempt: spec } = DEFAULT_SYNC_LIMITS;
    const allowance = spec.points + (spec.burst?.points ?? 0);
    const responses = await Promise.all(
      Array.from({ length: allowance + 30 }, (_, i) => autosave(attempt, edit(attempt, i + 1))),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(allowance);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
  });
});

describe("submits keep their own capacity", () => {
  it("a save storm that exhausts the cluster's autosave budget does not block a submit", async () => {
    await useLimits({ autosaveGlobal: { points: 6, durationSeconds: 60 } });
    const attempts = await Promise.all(Array.from({ length: 3 }, () => startedAttempt()));

    const storm = await Promise.all(
      attempts.flatMap((attempt) => Array.from({ length: 8 }, (_, i) => autosave(attempt, edit(attempt, i + 1)))),
    );
    expect(storm.filter((response) => response.status === 200)).toHaveLength(6);
    for (const response of storm.filter((r) => r.status !== 200)) expectRateLimited(response);
    // Still exhausted: a single further autosave is refused.
    expectRateLimited(await autosave(attempts[0]!, edit(attempts[0]!, 99)));

    for (const attempt of attempts) {
      const response = await submit(attempt, edit(attempt, 500), randomUUID());
      expect(response.status).toBe(200);
      expect(response.body.submissionId).toEqual(expect.any(String));
      const after = await state(attempt.attemptId);
      expect(after.submissions).toBe(1);
      expect(after.answers[0]).toMatchObject({ value: "edit 500", version: 500 });
    }
  });

  it("a submit storm past the per-attempt submit limit gets 429 and still creates exactly one submission", async () => {
    await useLimits({ submitPerAttempt: { points: 3, durationSeconds: 60 } });
    const attempt = await startedAttempt();
    const key = randomUUID();
    const body = edit(attempt, 1);

    const responses = await Promise.all(Array.from({ length: 8 }, () => submit(attempt, body, key)));
    expect(responses.filter((response) => response.status === 200)).toHaveLength(3);
    for (const response of responses.filter((r) => r.status !== 200)) expectRateLimited(response);
    expect(new Set(responses.filter((r) => r.status === 200).map((r) => r.text)).size).toBe(1);
    expect((await state(attempt.attemptId)).submissions).toBe(1);

    // Autosave capacity is untouched by the submits.
    const other = await startedAttempt();
    expect((await autosave(other, edit(other, 1))).status).toBe(200);
  });

  it("a submit refused by its limit creates nothing", async () => {
    await useLimits({ submitGlobal: { points: 1, durationSeconds: 60 } });
    const first = await startedAttempt();
    const second = await startedAttempt();
    expect((await submit(first, edit(first, 1), randomUUID())).status).toBe(200);
    const before = await state(second.attemptId);
    expectRateLimited(await submit(second, edit(second, 1), randomUUID()));
    expect(await state(second.attemptId)).toEqual(before);
    expect(before.submissions).toBe(0);
  });
});
