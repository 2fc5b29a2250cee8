// The exam health without Redis (one instance): REDIS_URL points at a port where nothing listens, so the
// numbers are this process's own, and a flush keeps nothing waiting for a Redis that is not there.
import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

process.env.REDIS_URL = "redis://127.0.0.1:1";
delete (globalThis as { holdfastRedis?: unknown }).holdfastRedis;

const { autosave, startedAttempt, submit } = await import("@/test-support/server/attempts");
const { getRedis } = await import("@/lib/server/redis/client");
const { call } = await import("@/test-support/server/http");
const { adminToken } = await import("@/test-support/server/fixtures");
const { GET: healthRoute } = await import("@/app/api/proctor/exams/[examId]/health/route");
const { flushExamRequestStats } = await import("./exam-request-stats");

describe("exam health with Redis down", () => {
  it("really has no Redis", async () => {
    const client = await getRedis();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(client?.status).not.toBe("ready");
  });

  it("answers with this instance's numbers", async () => {
    const attempt = await startedAttempt();
    const question = attempt.questions[2]!.id;
    await autosave(attempt, { deviceId: "laptop", answers: [{ questionId: question, value: "one", version: 1 }] });
    await autosave(attempt, { deviceId: "laptop", answers: [{ questionId: question, value: "two", version: 2 }] });
    const key = randomUUID();
    await submit(attempt, { deviceId: "laptop", answers: [] }, key);
    await submit(attempt, { deviceId: "laptop", answers: [] }, key);
    await flushExamRequestStats();

    const response = await call(healthRoute, { params: { examId: attempt.examId }, bearer: adminToken() });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      examId: attempt.examId,
      submissions: 1,
      lossRate: 0,
      duplicateRate: 0.5,
      rateLimited: 0,
    });
    expect(response.body.autosaveP99Ms).toBeGreaterThan(0);
    const total = (field: "autosaves" | "submits" | "replays") =>
      (response.body.series as Record<string, number>[]).reduce((sum, point) => sum + point[field]!, 0);
    expect([total("autosaves"), total("submits"), total("replays")]).toEqual([2, 2, 1]);
  });
});
