import "server-only";

import { getMetrics, type AnswerStatus } from "./registry";

/** Counts the per-answer results of a successful autosave. Only statuses, never values. */
export function recordAutosaveResults(results: readonly { status: AnswerStatus }[]): void {
  const counter = getMetrics().autosaveAnswers;
  for (const result of results) counter.inc({ status: result.status });
}

/** Counts answers kept as late answers (called where they are stored, so the count is exact). */
export function recordLateAnswers(via: "autosave" | "submit" | "export", count: number): void {
  if (count > 0) getMetrics().lateAnswers.inc({ via }, count);
}
