import type { ExamHealth, HealthPoint } from "@/lib/shared/schemas/proctor";

// Exam health the way `GET /api/proctor/exams/{examId}/health` sends it, for the unit tests that word it or read
// it from the route: a quiet last hour (nothing submitted, saved or turned away) unless the overrides say otherwise.
// Test-only (imported by *.test.ts files).

/** One quiet minute of the health series. */
export function healthPoint(overrides: Partial<HealthPoint> = {}): HealthPoint {
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

/** An exam's health before anything happened: no figures, and sixty quiet minutes. */
export function examHealth(overrides: Partial<ExamHealth> = {}): ExamHealth {
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
    series: Array.from({ length: 60 }, () => healthPoint()),
    ...overrides,
  };
}
