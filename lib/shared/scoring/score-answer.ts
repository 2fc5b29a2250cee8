import type { AnswerValue } from "@/lib/shared/schemas/attempts";
import type { ChoiceScoring, QuestionType } from "@/lib/shared/schemas/exams";
import { isBlankAnswer } from "@/lib/shared/answers";
import { readNumericAnswer } from "@/lib/shared/numeric-answer";

import { isWithinTolerance } from "./exact-decimal";
import { fractionOfUnits, pointsToUnits } from "./score-units";
import { matchesAcceptedAnswer } from "./short-text";

/** What scoring needs of a question: its keyed fields, never its prompt. */
export type ScorableQuestion = {
  type: QuestionType;
  points: number;
  /** Choice: option id(s); numeric: a number; short text: accepted answer(s); essay: null. */
  answerKey: string | string[] | number | null;
  tolerance: number | null;
  /** Multiple choice only; null means the default, partial credit. */
  scoring: ChoiceScoring | null;
  exactMatch: boolean;
  /** A choice question without a key on purpose (a survey item): never scored, not part of the maximum. */
  ungraded: boolean;
};

export type AutoScore =
  /** Decided without a person: `units` of `maxUnits` (see score-units.ts). */
  | { kind: "scored"; units: number; maxUnits: number; reason: "correct" | "incorrect" | "partial" | "blank" }
  /** A person decides: an essay, a short text that matched no accepted answer, a keyless question. */
  | { kind: "needs_grader"; maxUnits: number; reason: "essay" | "no_match" | "no_key" }
  /** An ungraded survey item: counts for nothing. */
  | { kind: "ungraded" };

/**
 * The automatic score of one answer (issue 15, "Scoring"). `value` is the frozen answer, or undefined when the
 * candidate never answered. A blank answer (missing, cleared, empty or white-space text, no choice) scores 0
 * without a person, whatever the type.
 */
export function scoreAnswer(question: ScorableQuestion, value: AnswerValue | undefined): AutoScore {
  if (question.ungraded) return { kind: "ungraded" };
  const maxUnits = pointsToUnits(question.points);
  if (isBlankAnswer(value)) return { kind: "scored", units: 0, maxUnits, reason: "blank" };
  const scored = (units: number) =>
    ({
      kind: "scored",
      units,
      maxUnits,
      reason: units === maxUnits ? "correct" : units === 0 ? "incorrect" : "partial",
    }) as const;

  switch (question.type) {
    case "essay":
      return { kind: "needs_grader", maxUnits, reason: "essay" };
    case "single_choice": {
      const key = typeof question.answerKey === "string" ? question.answerKey : null;
      if (key === null) return { kind: "needs_grader", maxUnits, reason: "no_key" };
      return scored(value === key ? maxUnits : 0);
    }
    case "multiple_choice": {
      const key = new Set(Array.isArray(question.answerKey) ? question.answerKey : []);
      if (key.size === 0) return { kind: "needs_grader", maxUnits, reason: "no_key" };
      const chosen = new Set(Array.isArray(value) ? value : [String(value)]);
      let right = 0;
      let wrong = 0;
      for (const option of chosen) {
        if (key.has(option)) right += 1;
        else wrong += 1;
      }
      if ((question.scoring ?? "partial") === "all_or_nothing") {
        return scored(right === key.size && wrong === 0 ? maxUnits : 0);
      }
      // Each right choice earns points ÷ (number of right options), each wrong one costs the same, floored at 0.
      return scored(fractionOfUnits(maxUnits, Math.max(0, right - wrong), key.size));
    }
    case "numeric": {
      if (typeof question.answerKey !== "number") return { kind: "needs_grader", maxUnits, reason: "no_key" };
      const answer = typeof value === "number" ? value : readNumber(value);
      if (answer === null) return scored(0);
      return scored(isWithinTolerance(answer, question.answerKey, question.tolerance ?? 0) ? maxUnits : 0);
    }
    case "short_text": {
      const accepted =
        typeof question.answerKey === "string"
          ? [question.answerKey]
          : Array.isArray(question.answerKey)
            ? question.answerKey
            : [];
      if (accepted.length === 0) return { kind: "needs_grader", maxUnits, reason: "no_key" };
      const text = typeof value === "string" ? value : String(value);
      if (matchesAcceptedAnswer(text, accepted, question.exactMatch)) return scored(maxUnits);
      // No match is not "wrong": a person reads it (a synonym, a spelling the key did not foresee).
      return { kind: "needs_grader", maxUnits, reason: "no_match" };
    }
  }
}

/** A numeric answer stored as text (older clients): read exactly as the page reads it, else not a number. */
function readNumber(value: AnswerValue | undefined): number | null {
  if (typeof value !== "string") return null;
  const reading = readNumericAnswer(value);
  return reading.kind === "number" ? reading.value : null;
}
