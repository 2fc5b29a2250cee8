// The per-exam health gauges in GET /api/metrics: gathered at scrape time for published exams with traffic
// in the last hour, from the same numbers as the proctor's health endpoint; the existing series stay.
import { randomUUID } from "node:crypto";

import { beforeAll, describe, expect, it } from "vitest";

import { db } from "@/lib/server/db/client";
import { flushExamRequestStats } from "@/lib/server/request-stats/exam-request-stats";
import { getRedis } from "@/lib/server/redis/client";
import { autosave, startedAttempt, submit } from "@/test-support/server/attempts";
import { adminToken, createExam } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

import { GET as metricsRoute } from "./route";

async function scrape(): Promise<string> {
  const response = await call<string>(metricsRoute, { path: "/api/metrics", bearer: adminToken() });
  expect(response.status).toBe(200);
  return response.text;
}

function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

beforeAll(async () => {
  const client = await getRedis();
  const until = Date.now() + 5_000;
  while (client?.status !== "ready" && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
});

describe("GET /api/metrics, per exam", () => {
  it("exposes loss rate, duplicate rate, p99s and 429s of each published exam with traffic", async () => {
    const attempt = await startedAttempt();
    const quiet = await createExam();
    await autosave(attempt, {
      deviceId: "d",
      answers: [{ questionId: attempt.questions[2]!.id, value: "x", version: 1 }],
    });
    const key = randomUUID();
    await submit(attempt, { deviceId: "d", answers: [], digest: "f".repeat(64) }, key);
    await submit(attempt, { deviceId: "d", answers: [], digest: "f".repeat(64) }, key);
    await flushExamRequestStats();

    const text = await scrape();
    const exam = `exam_id="${attempt.examId}"`;
    expect(text).toContain("# TYPE holdfast_exam_loss_rate gauge");
    expect(sample(text, `holdfast_exam_loss_rate{${exam}}`)).toBe(1);
    expect(sample(text, `holdfast_exam_duplicate_rate{${exam}}`)).toBe(0.5);
    expect(sample(text, `holdfast_exam_request_p99_seconds{${exam},kind="autosave"}`)).toBeGreaterThan(0);
    expect(sample(text, `holdfast_exam_request_p99_seconds{${exam},kind="submit"}`)).toBeGreaterThan(0);
    expect(sample(text, `holdfast_exam_rate_limited{${exam}}`)).toBe(0);
    // An exam without traffic has no series; the existing metrics are still there.
    expect(text).not.toContain(quiet.id);
    expect(sample(text, 'holdfast_submit_requests_total{outcome="replayed"}')).toBeGreaterThanOrEqual(1);
  });

  it("leaves out exams that are not published", async () => {
    const attempt = await startedAttempt();
    await autosave(attempt, {
      deviceId: "d",
      answers: [{ questionId: attempt.questions[2]!.id, value: "x", version: 1 }],
    });
    await flushExamRequestStats();
    expect(await scrape()).toContain(attempt.examId);
    await db.exam.update({ where: { id: attempt.examId }, data: { status: "closed" } });
    expect(await scrape()).not.toContain(attempt.examId);
  });
});
