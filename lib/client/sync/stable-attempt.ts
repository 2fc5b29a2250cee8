import type { CandidateQuestion } from "@/lib/shared/schemas/exams";

import type { AttemptRecord } from "../offline/db";

/** Equality of plain data (what IndexedDB and JSON hold): same primitives, same arrays, same keys and values. */
export function samePlainData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => samePlainData(item, b[index]))
    );
  }
  const aKeys = Object.keys(a);
  if (aKeys.length !== Object.keys(b).length) return false;
  return aKeys.every(
    (key) =>
      Object.prototype.hasOwnProperty.call(b, key) &&
      samePlainData((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

function keepQuestions(before: readonly CandidateQuestion[], after: CandidateQuestion[]): CandidateQuestion[] {
  let isSame = before.length === after.length;
  const kept = after.map((question, index) => {
    const previous = before[index];
    if (previous !== undefined && samePlainData(previous, question)) return previous;
    isSame = false;
    return question;
  });
  return isSame ? (before as CandidateQuestion[]) : kept;
}

/**
 * The engine's next in-memory attempt record, keeping the previous one's question set and flags (the very
 * objects) where they are equal. Every IndexedDB read or transaction that returns the record gives new objects
 * for the same paper — each committed keystroke does — and the page's parts compare by reference: an unchanged
 * question keeps its card from re-rendering, an unchanged set keeps the navigator (docs/benchmarks/log/client.md).
 */
export function keepUnchangedParts(before: AttemptRecord | null, after: AttemptRecord | null): AttemptRecord | null {
  if (before === null || after === null || before === after) return after;
  const questions =
    before.questions === after.questions ? after.questions : keepQuestions(before.questions, after.questions);
  const flagged = samePlainData(before.flagged, after.flagged) ? before.flagged : after.flagged;
  if (questions === after.questions && flagged === after.flagged) return after;
  return { ...after, questions, flagged };
}
