import { describe, expect, it } from "vitest";

import type { ExamHealth, HealthPoint } from "../schemas/proctor";
import { describeExamHealth, formatMs, formatPercent } from "./describe-exam-health";

function point(overrides: Partial<HealthPoint> = {}): HealthPoint {
  return {
    at: 0,
    autosaves: 0,
    submits: 0,
    replays: 0,
    rateLimited: 0,
    autosaveP99Ms: null,
    submitP99Ms: null,
    ...overrides,
  };
}

function health(overrides: Partial<ExamHealth> = {}): ExamHealth {
  return {
    examId: "e",
    serverTime: 0,
    submissions: 0,
    lossRate: null,
    digestMismatches: 0,
    attemptsWithLateAnswers: 0,
    duplicateRate: null,
    autosaveP99Ms: null,
    submitP99Ms: null,
    rateLimited: 0,
    series: Array.from({ length: 60 }, () => point()),
    ...overrides,
  };
}

const byKey = (value: ExamHealth) =>
  Object.fromEntries(describeExamHealth(value).map((figure) => [figure.key, figure]));

describe("formatting", () => {
  it("writes percents and durations plainly", () => {
    expect(formatPercent(0.004)).toBe("0.4 %");
    expect(formatPercent(0)).toBe("0 %");
    expect(formatPercent(0.25)).toBe("25 %");
    expect(formatPercent(0.0001)).toBe("< 0.1 %");
    expect(formatMs(42.4)).toBe("42 ms");
    expect(formatMs(1234)).toBe("1.2 s");
  });
});

describe("describeExamHealth", () => {
  it("is quiet before anything happened", () => {
    const figures = byKey(health());
    expect(figures.loss).toMatchObject({ value: "—", detail: "No submissions yet.", tone: "quiet" });
    expect(figures.duplicates!.tone).toBe("quiet");
    expect(figures.autosave).toMatchObject({ value: "—", detail: "No autosaves in the last hour." });
    expect(figures.rateLimited).toMatchObject({ value: "0", tone: "ok" });
  });

  it("says no answers were lost, and how many submissions were checked", () => {
    expect(byKey(health({ submissions: 480, lossRate: 0 })).loss).toMatchObject({
      value: "0 %",
      detail: "No answers lost in 480 submissions.",
      tone: "ok",
    });
  });

  it("names differing submissions and late answers in red", () => {
    const figures = byKey(
      health({ submissions: 500, digestMismatches: 2, attemptsWithLateAnswers: 1, lossRate: 3 / 500 }),
    );
    expect(figures.loss).toMatchObject({
      value: "0.6 %",
      detail: "2 submissions differ from the device (0.4 %); 1 candidate has late answers.",
      tone: "bad",
    });
  });

  it("counts repeats among submits, p99 tones and 429s", () => {
    const series = [point({ submits: 40, replays: 3 }), ...Array.from({ length: 59 }, () => point())];
    const figures = byKey(
      health({ duplicateRate: 4 / 40, autosaveP99Ms: 38, submitP99Ms: 1_500, rateLimited: 12, series }),
    );
    expect(figures.duplicates).toMatchObject({
      value: "10 %",
      detail: "4 of 40 submits were repeats, answered with the same receipt.",
      tone: "warn",
    });
    expect(figures.autosave).toMatchObject({
      value: "38 ms",
      tone: "ok",
      detail: "99 in 100 saves answered within 38 ms.",
    });
    expect(figures.submit).toMatchObject({ value: "1.5 s", tone: "warn" });
    expect(figures.rateLimited).toMatchObject({ value: "12", tone: "warn" });
  });
});
