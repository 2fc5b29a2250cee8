import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { adminToken } from "@/test-support/server/fixtures";
import { autosave, startedAttempt, submit } from "@/test-support/server/attempts";
import { call } from "@/test-support/server/http";

import { GET as metricsRoute } from "./route";

async function scrape(): Promise<string> {
  const response = await call<string>(metricsRoute, { path: "/api/metrics", bearer: adminToken() });
  expect(response.status).toBe(200);
  return response.text;
}

/** The value of one series, e.g. `holdfast_submit_requests_total{outcome="ok"}`; 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe("GET /api/metrics", () => {
  it("counts autosaves and submits by outcome, answers by status and late answers, with durations", async () => {
    const attempt = await startedAttempt();
    const [single, , short] = attempt.questions;
    const secret = `essay text ${randomUUID()}`;
    const before = await scrape();

    expect(
      (
        await autosave(attempt, {
          deviceId: "laptop",
          answers: [
            { questionId: short!.id, value: secret, version: 2 },
            { questionId: single!.id, value: "a", version: 1 },
          ],
        })
      ).status,
    ).toBe(200);
    expect(
      (await autosave(attempt, { deviceId: "laptop", answers: [{ questionId: short!.id, value: secret, version: 2 }] }))
        .status,
    ).toBe(200);
    expect(
      (await autosave(attempt, { deviceId: "phone", answers: [{ questionId: short!.id, value: "older", version: 1 }] }))
        .status,
    ).toBe(200);
    expect(
      (await autosave(attempt, { deviceId: "laptop", answers: [{ questionId: randomUUID(), value: "x", version: 3 }] }))
        .status,
    ).toBe(422);
    const key = randomUUID();
    const body = { deviceId: "laptop", answers: [{ questionId: short!.id, value: secret, version: 3 }] };
    expect((await submit(attempt, body, key)).status).toBe(200);
    expect((await submit(attempt, body, key)).status).toBe(200);
    expect((await submit(attempt, body, randomUUID())).status).toBe(409);
    expect(
      (
        await autosave(attempt, {
          deviceId: "phone",
          answers: [
            { questionId: short!.id, value: "too late", version: 9 },
            { questionId: single!.id, value: "b", version: 9 },
          ],
        })
      ).status,
    ).toBe(409);

    const after = await scrape();
    const delta = (series: string) => sample(after, series) - sample(before, series);
    expect(delta('holdfast_autosave_requests_total{outcome="ok"}')).toBe(3);
    expect(delta('holdfast_autosave_requests_total{outcome="rejected"}')).toBe(1);
    expect(delta('holdfast_autosave_requests_total{outcome="conflict"}')).toBe(1);
    expect(delta('holdfast_autosave_answers_total{status="applied"}')).toBe(2);
    expect(delta('holdfast_autosave_answers_total{status="duplicate"}')).toBe(1);
    expect(delta('holdfast_autosave_answers_total{status="stale"}')).toBe(1);
    expect(delta('holdfast_submit_requests_total{outcome="ok"}')).toBe(1);
    expect(delta('holdfast_submit_requests_total{outcome="replayed"}')).toBe(1);
    expect(delta('holdfast_submit_requests_total{outcome="conflict"}')).toBe(1);
    expect(delta('holdfast_late_answers_total{via="autosave"}')).toBe(2);
    // The refused submit carried an edit the frozen paper already holds: not late, not counted.
    expect(delta('holdfast_late_answers_total{via="submit"}')).toBe(0);
    expect(delta('holdfast_autosave_request_duration_seconds_count{outcome="ok"}')).toBe(3);
    expect(delta('holdfast_submit_request_duration_seconds_count{outcome="ok"}')).toBe(1);
    expect(after).toContain('holdfast_submit_request_duration_seconds_bucket{le="0.1",outcome="ok"}');
    expect(after).toContain("# TYPE holdfast_autosave_requests_total counter");
    expect(after).toContain("# TYPE holdfast_submit_request_duration_seconds histogram");
    // Every outcome has a series from the start, so rates exist before the first 429.
    expect(after).toContain('holdfast_submit_requests_total{outcome="limited"} ');

    // Never answer contents, ids or devices: only outcome labels.
    expect(after).not.toContain(secret);
    expect(after).not.toContain(attempt.attemptId);
    expect(after).not.toContain("laptop");
  });

  it("is open to a Prometheus scrape while METRICS_TOKEN is unset, like /api/health", async () => {
    const response = await call<string>(metricsRoute, { path: "/api/metrics" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.text).toContain("# HELP holdfast_submit_requests_total");
    expect(response.text).toContain("process_cpu_user_seconds_total");
  });
});
