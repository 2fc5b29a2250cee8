import type { ExamHealth } from "../schemas/proctor";

/** How a figure should look: calm when fine, amber when worth a glance, red only when answers are at stake. */
export type HealthTone = "ok" | "warn" | "bad" | "quiet";

/** The number of a figure, for the page to write in its reader's locale. */
export type HealthValue =
  { kind: "none" } | { kind: "percent"; ratio: number } | { kind: "ms"; ms: number } | { kind: "count"; count: number };

/**
 * What the number means right now, by code with its numbers; the dashboard says it in one plain sentence
 * (messages/<locale>/proctor.json, `health.detail`).
 */
export type HealthDetail =
  | { code: "noSubmissions" }
  | { code: "noLoss"; submissions: number }
  | { code: "lossMismatch"; mismatches: number; mismatchRatio: number }
  | { code: "lossLate"; candidates: number }
  | { code: "lossBoth"; mismatches: number; mismatchRatio: number; candidates: number }
  | { code: "noSubmits" }
  | { code: "noRepeats"; submits: number }
  | { code: "repeats"; repeats: number; submits: number }
  | { code: "noAutosaves" }
  | { code: "autosaveFast" | "autosaveSlow" | "submitFast" | "submitSlow"; ms: number }
  | { code: "noneTurnedAway" }
  | { code: "turnedAway"; count: number };

export type HealthFigure = {
  key: "loss" | "duplicates" | "autosave" | "submit" | "rateLimited";
  value: HealthValue;
  detail: HealthDetail;
  tone: HealthTone;
};

/**
 * Where a p99 stops being calm. Autosaves run in the background (the draft is safe on the device), so
 * only seconds matter; a submit is what a candidate waits on at the end.
 */
export const P99_THRESHOLDS_MS = {
  autosave: { warn: 500, bad: 2_000 },
  submit: { warn: 1_000, bad: 3_000 },
} as const;
/** Duplicates are harmless (replays answer the same), but many mean devices are retrying a lot. */
export const DUPLICATE_WARN_RATE = 0.05;

const NONE = { kind: "none" } as const;

function describeLoss(health: ExamHealth): HealthFigure {
  const key = "loss" as const;
  if (health.submissions === 0 || health.lossRate === null) {
    return { key, value: NONE, detail: { code: "noSubmissions" }, tone: "quiet" };
  }
  const mismatches = health.digestMismatches;
  const candidates = health.attemptsWithLateAnswers;
  if (mismatches === 0 && candidates === 0) {
    return {
      key,
      value: { kind: "percent", ratio: 0 },
      detail: { code: "noLoss", submissions: health.submissions },
      tone: "ok",
    };
  }
  const mismatchRatio = mismatches / health.submissions;
  const detail: HealthDetail =
    mismatches > 0 && candidates > 0
      ? { code: "lossBoth", mismatches, mismatchRatio, candidates }
      : mismatches > 0
        ? { code: "lossMismatch", mismatches, mismatchRatio }
        : { code: "lossLate", candidates };
  return { key, value: { kind: "percent", ratio: health.lossRate }, detail, tone: "bad" };
}

function describeDuplicates(health: ExamHealth): HealthFigure {
  const key = "duplicates" as const;
  const submits = health.series.reduce((sum, point) => sum + point.submits, 0);
  if (health.duplicateRate === null || submits === 0) {
    return { key, value: NONE, detail: { code: "noSubmits" }, tone: "quiet" };
  }
  const repeats = Math.round(health.duplicateRate * submits);
  if (repeats === 0) {
    return { key, value: { kind: "percent", ratio: 0 }, detail: { code: "noRepeats", submits }, tone: "ok" };
  }
  return {
    key,
    value: { kind: "percent", ratio: health.duplicateRate },
    detail: { code: "repeats", repeats, submits },
    tone: health.duplicateRate >= DUPLICATE_WARN_RATE ? "warn" : "ok",
  };
}

function describeP99(kind: "autosave" | "submit", p99: number | null): HealthFigure {
  if (p99 === null) {
    return {
      key: kind,
      value: NONE,
      detail: { code: kind === "autosave" ? "noAutosaves" : "noSubmits" },
      tone: "quiet",
    };
  }
  const { warn, bad } = P99_THRESHOLDS_MS[kind];
  const tone: HealthTone = p99 >= bad ? "bad" : p99 >= warn ? "warn" : "ok";
  const speed = tone === "ok" ? "Fast" : "Slow";
  return { key: kind, value: { kind: "ms", ms: p99 }, detail: { code: `${kind}${speed}`, ms: p99 }, tone };
}

function describeRateLimited(health: ExamHealth): HealthFigure {
  const key = "rateLimited" as const;
  const value = { kind: "count", count: health.rateLimited } as const;
  if (health.rateLimited === 0) return { key, value, detail: { code: "noneTurnedAway" }, tone: "ok" };
  return { key, value, detail: { code: "turnedAway", count: health.rateLimited }, tone: "warn" };
}

/**
 * The five figures of the health panel, in reading order: each number with what it means now and its tone.
 * The words (for a tired proctor) are the page's, in the reader's language.
 */
export function describeExamHealth(health: ExamHealth): HealthFigure[] {
  return [
    describeLoss(health),
    describeDuplicates(health),
    describeP99("autosave", health.autosaveP99Ms),
    describeP99("submit", health.submitP99Ms),
    describeRateLimited(health),
  ];
}
