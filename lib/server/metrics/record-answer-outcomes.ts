import "server-only";

import { AppError } from "@/lib/shared/errors";

import { getMetrics, type AnswerStatus } from "./registry";

/** Counts the per-answer results of a successful autosave. Only statuses, never values. */
export function recordAutosaveResults(results: readonly { status: AnswerStatus }[]): void {
  const counter = getMetrics().autosaveAnswers;
  for (const result of results) counter.inc({ status: result.status });
}

/**
 * Runs a write and, when it is refused because the attempt is frozen (409 ALREADY_SUBMITTED or
 * DEADLINE_PASSED, which keep the request's answers as late answers), counts those answers.
 * `questionIds` are the request's; a question named twice is one answer, as the operation keeps it.
 */
export async function countingLateAnswers<T>(
  via: "autosave" | "submit",
  questionIds: readonly string[],
  operation: () => Promise<T>,
): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof AppError && (error.code === "ALREADY_SUBMITTED" || error.code === "DEADLINE_PASSED")) {
      const count = new Set(questionIds).size;
      if (count > 0) getMetrics().lateAnswers.inc({ via }, count);
    }
    throw error;
  }
}
