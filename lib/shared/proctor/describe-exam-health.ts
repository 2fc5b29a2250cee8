import type { ExamHealth } from "../schemas/proctor";

/** How a figure should look: calm when fine, amber when worth a glance, red only when answers are at stake. */
export type HealthTone = "ok" | "warn" | "bad" | "quiet";

export type HealthFigure = {
  key: "loss" | "duplicates" | "autosave" | "submit" | "rateLimited";
  label: string;
  /** The number, short: "0.4 %", "42 ms", "—". */
  value: string;
  /** One plain sentence saying what the number means right now. */
  detail: string;
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

/** "0.4 %", "12 %", "< 0.1 %" for a rate above zero that would round to it. */
export function formatPercent(rate: number): string {
  const percent = rate * 100;
  if (percent > 0 && percent < 0.05) return "< 0.1 %";
  const digits = percent >= 10 || Number.isInteger(percent) ? 0 : 1;
  return `${percent.toFixed(digits)} %`;
}

/** "42 ms", "1.2 s". */
export function formatMs(milliseconds: number): string {
  if (milliseconds < 1_000) return `${Math.round(milliseconds)} ms`;
  return `${(milliseconds / 1_000).toFixed(milliseconds < 10_000 ? 1 : 0)} s`;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function describeLoss(health: ExamHealth): HealthFigure {
  const base = { key: "loss" as const, label: "Loss rate" };
  if (health.submissions === 0 || health.lossRate === null) {
    return { ...base, value: "—", detail: "No submissions yet.", tone: "quiet" };
  }
  if (health.digestMismatches === 0 && health.attemptsWithLateAnswers === 0) {
    return {
      ...base,
      value: "0 %",
      detail: `No answers lost in ${plural(health.submissions, "submission", "submissions")}.`,
      tone: "ok",
    };
  }
  const parts: string[] = [];
  if (health.digestMismatches > 0) {
    const differ = health.digestMismatches === 1 ? "submission differs" : "submissions differ";
    parts.push(
      `${health.digestMismatches} ${differ} from the device (${formatPercent(health.digestMismatches / health.submissions)})`,
    );
  }
  if (health.attemptsWithLateAnswers > 0) {
    parts.push(`${plural(health.attemptsWithLateAnswers, "candidate has", "candidates have")} late answers`);
  }
  return { ...base, value: formatPercent(health.lossRate), detail: `${parts.join("; ")}.`, tone: "bad" };
}

function describeDuplicates(health: ExamHealth): HealthFigure {
  const base = { key: "duplicates" as const, label: "Duplicate submits" };
  const submits = health.series.reduce((sum, point) => sum + point.submits, 0);
  if (health.duplicateRate === null || submits === 0) {
    return { ...base, value: "—", detail: "No submits in the last hour.", tone: "quiet" };
  }
  const repeats = Math.round(health.duplicateRate * submits);
  if (repeats === 0)
    return { ...base, value: "0 %", detail: `${plural(submits, "submit", "submits")}, none repeated.`, tone: "ok" };
  return {
    ...base,
    value: formatPercent(health.duplicateRate),
    detail: `${repeats} of ${submits} submits were repeats, answered with the same receipt.`,
    tone: health.duplicateRate >= DUPLICATE_WARN_RATE ? "warn" : "ok",
  };
}

function describeP99(kind: "autosave" | "submit", p99: number | null): HealthFigure {
  const label = kind === "autosave" ? "Autosave p99" : "Submit p99";
  if (p99 === null) {
    return {
      key: kind,
      label,
      value: "—",
      detail: kind === "autosave" ? "No autosaves in the last hour." : "No submits in the last hour.",
      tone: "quiet",
    };
  }
  const { warn, bad } = P99_THRESHOLDS_MS[kind];
  const tone: HealthTone = p99 >= bad ? "bad" : p99 >= warn ? "warn" : "ok";
  const detail =
    tone === "ok"
      ? `99 in 100 ${kind === "autosave" ? "saves" : "submits"} answered within ${formatMs(p99)}.`
      : `Slow: 1 in 100 ${kind === "autosave" ? "saves" : "submits"} took longer than ${formatMs(p99)}.`;
  return { key: kind, label, value: formatMs(p99), detail, tone };
}

function describeRateLimited(health: ExamHealth): HealthFigure {
  const base = { key: "rateLimited" as const, label: "Asked to wait (429)" };
  if (health.rateLimited === 0) return { ...base, value: "0", detail: "No request was turned away.", tone: "ok" };
  return {
    ...base,
    value: String(health.rateLimited),
    detail: `${plural(health.rateLimited, "request was", "requests were")} asked to retry later; the work waits safely on the device.`,
    tone: "warn",
  };
}

/** The five figures of the health panel, in reading order, with words a tired proctor understands. */
export function describeExamHealth(health: ExamHealth): HealthFigure[] {
  return [
    describeLoss(health),
    describeDuplicates(health),
    describeP99("autosave", health.autosaveP99Ms),
    describeP99("submit", health.submitP99Ms),
    describeRateLimited(health),
  ];
}
