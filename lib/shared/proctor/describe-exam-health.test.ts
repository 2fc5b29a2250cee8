import { describe, expect, it } from "vitest";

import { examHealth, healthPoint } from "@/test-support/shared/exam-health";

import type { ExamHealth } from "../schemas/proctor";
import { describeExamHealth } from "./describe-exam-health";

const byKey = (value: ExamHealth) =>
  Object.fromEntries(describeExamHealth(value).map((figure) => [figure.key, figure]));

// The sentences themselves are the dashboard's, tested in lib/shared/proctor/describe.test.ts.
describe("describeExamHealth", () => {
  it("is quiet before anything happened", () => {
    const figures = byKey(examHealth());
    expect(figures.loss).toMatchObject({ value: { kind: "none" }, detail: { code: "noSubmissions" }, tone: "quiet" });
    expect(figures.duplicates!.tone).toBe("quiet");
    expect(figures.autosave).toMatchObject({ value: { kind: "none" }, detail: { code: "noAutosaves" } });
    expect(figures.rateLimited).toMatchObject({ value: { kind: "count", count: 0 }, tone: "ok" });
  });

  it("says no answers were lost, and how many submissions were checked", () => {
    expect(byKey(examHealth({ submissions: 480, lossRate: 0 })).loss).toMatchObject({
      value: { kind: "percent", ratio: 0 },
      detail: { code: "noLoss", submissions: 480 },
      tone: "ok",
    });
  });

  it("names differing submissions and late answers in red", () => {
    const figures = byKey(
      examHealth({ submissions: 500, digestMismatches: 2, attemptsWithLateAnswers: 1, lossRate: 3 / 500 }),
    );
    expect(figures.loss).toMatchObject({
      value: { kind: "percent", ratio: 3 / 500 },
      detail: { code: "lossBoth", mismatches: 2, mismatchRatio: 2 / 500, candidates: 1 },
      tone: "bad",
    });
    expect(byKey(examHealth({ submissions: 10, attemptsWithLateAnswers: 1, lossRate: 0.1 })).loss!.detail).toEqual({
      code: "lossLate",
      candidates: 1,
    });
  });

  it("counts repeats among submits, p99 tones and 429s", () => {
    const series = [healthPoint({ submits: 40, replays: 3 }), ...Array.from({ length: 59 }, () => healthPoint())];
    const figures = byKey(
      examHealth({ duplicateRate: 4 / 40, autosaveP99Ms: 38, submitP99Ms: 1_500, rateLimited: 12, series }),
    );
    expect(figures.duplicates).toMatchObject({
      value: { kind: "percent", ratio: 0.1 },
      detail: { code: "repeats", repeats: 4, submits: 40 },
      tone: "warn",
    });
    expect(figures.autosave).toMatchObject({
      value: { kind: "ms", ms: 38 },
      tone: "ok",
      detail: { code: "autosaveFast", ms: 38 },
    });
    expect(figures.submit).toMatchObject({
      value: { kind: "ms", ms: 1_500 },
      tone: "warn",
      detail: { code: "submitSlow" },
    });
    expect(figures.rateLimited).toMatchObject({ value: { kind: "count", count: 12 }, tone: "warn" });
  });
});
