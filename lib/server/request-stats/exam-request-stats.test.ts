import { describe, expect, it } from "vitest";

import {
  ExamRequestStats,
  HEALTH_WINDOW_MINUTES,
  MAX_EXAMS_IN_PROCESS,
  minuteFromHash,
  minuteToFields,
  type ExamRequestSample,
} from "./exam-request-stats";
import { bucketIndex } from "./latency-buckets";

const NOW = Date.UTC(2026, 10, 30, 9, 30, 20);
const exam = "0190f0c8-0000-7000-8000-00000000000a";
const other = "0190f0c8-0000-7000-8000-00000000000b";

function sample(overrides: Partial<ExamRequestSample>): ExamRequestSample {
  return { examId: exam, endpoint: "autosave", durationMs: 12, outcome: "ok", at: NOW, ...overrides };
}

describe("ExamRequestStats without Redis", () => {
  it("counts per exam and minute: requests, latency buckets, replays, already-submitted and 429s", async () => {
    const stats = new ExamRequestStats();
    stats.record(sample({ durationMs: 12 }));
    stats.record(sample({ durationMs: 250, at: NOW - 60_000 }));
    stats.record(sample({ endpoint: "submit", durationMs: 80 }));
    stats.record(sample({ endpoint: "submit", durationMs: 7, outcome: "replayed" }));
    stats.record(sample({ endpoint: "submit", durationMs: 9, outcome: "conflict" }));
    stats.recordAlreadySubmitted(exam, NOW);
    stats.record(sample({ endpoint: "heartbeat", outcome: "limited" }));
    stats.record(sample({ endpoint: "heartbeat", outcome: "ok" }));
    stats.record(sample({ endpoint: "autosave", outcome: "limited", durationMs: 1 }));
    stats.record(sample({ examId: other, durationMs: 5 }));

    await stats.flush(null, NOW);
    const window = (await stats.read([exam, other], null, NOW)).get(exam)!;
    expect(window).toHaveLength(HEALTH_WINDOW_MINUTES);
    const current = window.at(-1)!;
    const previous = window.at(-2)!;
    expect(current).toMatchObject({ autosaves: 2, submits: 3, replays: 1, alreadySubmitted: 1, rateLimited: 2 });
    expect(current.autosaveBuckets[bucketIndex(12)]).toBe(1);
    expect(current.autosaveBuckets[bucketIndex(1)]).toBe(1);
    expect(current.submitBuckets[bucketIndex(80)]).toBe(1);
    expect(previous).toMatchObject({ autosaves: 1, submits: 0, rateLimited: 0 });
    expect(previous.autosaveBuckets[bucketIndex(250)]).toBe(1);
    expect(window.slice(0, -2).every((minute) => minute.autosaves === 0 && minute.submits === 0)).toBe(true);

    const otherWindow = (await stats.read([other], null, NOW)).get(other)!;
    expect(otherWindow.at(-1)).toMatchObject({ autosaves: 1, submits: 0 });
  });

  it("forgets minutes older than the window, and knows which exams had traffic in it", async () => {
    const stats = new ExamRequestStats();
    stats.record(sample({ at: NOW - HEALTH_WINDOW_MINUTES * 60_000 - 1 }));
    stats.record(sample({ examId: other, at: NOW }));
    stats.record(sample({ examId: "beats-only", endpoint: "heartbeat", outcome: "ok", at: NOW }));
    expect(await stats.activeExamIds(null, NOW)).toEqual([other]);
    const window = (await stats.read([exam], null, NOW)).get(exam)!;
    expect(window.every((minute) => minute.autosaves === 0)).toBe(true);
  });

  it("keeps at most MAX_EXAMS_IN_PROCESS exams, forgetting the one with the oldest traffic", async () => {
    const stats = new ExamRequestStats();
    const ids = Array.from({ length: MAX_EXAMS_IN_PROCESS + 5 }, (_, index) => `exam-${index}`);
    ids.forEach((examId, index) => stats.record(sample({ examId, at: NOW - 50 * 60_000 + index })));
    // Each new exam beyond the cap pushes out the one with the oldest traffic: the first six are gone.
    stats.record(sample({ examId: "exam-late", at: NOW }));
    const active = await stats.activeExamIds(null, NOW);
    expect(active.length).toBe(MAX_EXAMS_IN_PROCESS);
    expect(active).not.toContain("exam-0");
    expect(active).toContain("exam-late");
  });
});

describe("the Redis hash of a minute", () => {
  it("round-trips through its fields, leaving zeros out", () => {
    const stats = new ExamRequestStats();
    stats.record(sample({ durationMs: 12 }));
    stats.record(sample({ endpoint: "submit", durationMs: 600, outcome: "replayed" }));
    stats.record(sample({ endpoint: "heartbeat", outcome: "limited" }));
    stats.recordAlreadySubmitted(exam, NOW);
    return stats.read([exam], null, NOW).then((windows) => {
      const counts = windows.get(exam)!.at(-1)!;
      const fields = minuteToFields(counts);
      expect(fields.every(([, value]) => value > 0)).toBe(true);
      expect(minuteFromHash(Object.fromEntries(fields.map(([field, value]) => [field, String(value)])))).toEqual(
        counts,
      );
    });
  });
});
