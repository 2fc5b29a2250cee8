import { describe, expect, it } from "vitest";

import { emptyMinute, HEALTH_WINDOW_MINUTES } from "../request-stats/exam-request-stats";
import { bucketIndex } from "../request-stats/latency-buckets";
import { summariseExamHealth } from "./summarise-exam-health";

const NOW = Date.UTC(2026, 10, 30, 9, 30, 20);
const loss = { examId: "e", submissions: 0, digestMismatches: 0, attemptsWithLateAnswers: 0, affectedSubmissions: 0 };
const quiet = () => Array.from({ length: HEALTH_WINDOW_MINUTES }, emptyMinute);

describe("summariseExamHealth", () => {
  it("has no rates or p99s without submissions or requests, and 60 zero points ending at this minute", () => {
    const health = summariseExamHealth({ loss, minutes: quiet(), now: NOW });
    expect(health).toMatchObject({
      lossRate: null,
      duplicateRate: null,
      autosaveP99Ms: null,
      submitP99Ms: null,
      rateLimited: 0,
    });
    expect(health.series).toHaveLength(60);
    expect(health.series.at(-1)!.at).toBe(Date.UTC(2026, 10, 30, 9, 30));
    expect(health.series[0]!.at).toBe(Date.UTC(2026, 10, 30, 8, 31));
  });

  it("computes the loss rate from Postgres figures and the duplicate rate and p99s over the hour", () => {
    const minutes = quiet();
    const early = minutes[10]!;
    early.submits = 8;
    early.replays = 1;
    early.submitBuckets[bucketIndex(40)] = 8;
    const late = minutes.at(-1)!;
    late.submits = 2;
    late.alreadySubmitted = 1;
    late.submitBuckets[bucketIndex(900)] = 2;
    late.autosaves = 100;
    late.autosaveBuckets[bucketIndex(8)] = 100;
    late.rateLimited = 3;
    const health = summariseExamHealth({
      // One submission with both a mismatch and late answers, one with late answers only: two affected.
      loss: { examId: "e", submissions: 500, digestMismatches: 1, attemptsWithLateAnswers: 2, affectedSubmissions: 2 },
      minutes,
      now: NOW,
    });
    expect(health.lossRate).toBeCloseTo(2 / 500, 10);
    expect(health.duplicateRate).toBeCloseTo(2 / 10, 10);
    // 10 submits: rank 9.9 is in the (750, 1000] bucket, 1.9 of its 2 requests in.
    expect(health.submitP99Ms).toBeCloseTo(750 + 250 * 0.95, 1);
    expect(health.autosaveP99Ms).toBeGreaterThan(5);
    expect(health.autosaveP99Ms).toBeLessThanOrEqual(10);
    expect(health.rateLimited).toBe(3);
    expect(health.series[10]).toMatchObject({ submits: 8, replays: 1, submitP99Ms: expect.any(Number) });
    expect(health.series.at(-1)).toMatchObject({ autosaves: 100, rateLimited: 3 });
  });
});
