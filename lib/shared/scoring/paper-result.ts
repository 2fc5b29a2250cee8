import type { AnswerValue } from "@/lib/shared/schemas/attempts";

import { scoreAnswer, type ScorableQuestion } from "./score-answer";

/** A person's marks on one answer, by marker (a grade is in units, lib/shared/scoring/score-units.ts). */
export type AnswerGrades = { first?: number; second?: number; final?: number };

/** How one question of a result was decided. */
export type ResultQuestion = {
  questionId: string;
  /** Null while a person still has to decide; never null for an ungraded survey item (0 of 0). */
  units: number | null;
  maxUnits: number;
  /**
   * "auto": scored by the rules; "grader": a person's mark (both markers agreeing, with double marking);
   * "settled": an admin's mark after two markers disagreed; "ungraded": a survey item; "pending": waiting.
   */
  source: "auto" | "grader" | "settled" | "ungraded" | "pending";
  /** Why, in a word the pages translate: correct, incorrect, partial, blank, essay, no_match, no_key,
   * awaiting_second, disagreement, graded. */
  reason: string;
  /** The late answer whose value was scored instead of the frozen one (accepted by staff). */
  lateAnswerId: string | null;
};

export type PaperResult = { units: number; maxUnits: number; pending: number; questions: ResultQuestion[] };

/**
 * One paper's result from its frozen answers, the late answers staff accepted (their value replaces the frozen
 * one in the result only: the paper and its digest never change) and people's grades. A person's mark, where
 * there is one, decides the question, an automatic score otherwise; with double marking a question is decided
 * when both markers agree or an admin settled it.
 */
export function computePaperResult(input: {
  questions: readonly (ScorableQuestion & { id: string })[];
  answers: ReadonlyMap<string, AnswerValue>;
  acceptedLate: ReadonlyMap<string, { lateAnswerId: string; value: AnswerValue }>;
  grades: ReadonlyMap<string, AnswerGrades>;
  secondMarking: boolean;
}): PaperResult {
  let units = 0;
  let maxUnits = 0;
  let pending = 0;
  const questions: ResultQuestion[] = [];
  for (const question of input.questions) {
    const late = input.acceptedLate.get(question.id) ?? null;
    const value = late ? late.value : input.answers.get(question.id);
    const auto = scoreAnswer(question, value);
    const lateAnswerId = late?.lateAnswerId ?? null;
    if (auto.kind === "ungraded") {
      questions.push({
        questionId: question.id,
        units: 0,
        maxUnits: 0,
        source: "ungraded",
        reason: "ungraded",
        lateAnswerId,
      });
      continue;
    }
    maxUnits += auto.maxUnits;
    const person = personalMark(input.grades.get(question.id), input.secondMarking);
    let decided: ResultQuestion;
    if (person.kind === "decided") {
      decided = {
        questionId: question.id,
        units: Math.min(person.units, auto.maxUnits),
        maxUnits: auto.maxUnits,
        source: person.source,
        reason: "graded",
        lateAnswerId,
      };
    } else if (auto.kind === "scored") {
      decided = {
        questionId: question.id,
        units: auto.units,
        maxUnits: auto.maxUnits,
        source: "auto",
        reason: auto.reason,
        lateAnswerId,
      };
    } else {
      decided = {
        questionId: question.id,
        units: null,
        maxUnits: auto.maxUnits,
        source: "pending",
        reason: person.kind === "waiting" ? person.reason : auto.reason,
        lateAnswerId,
      };
    }
    if (decided.units === null) pending += 1;
    else units += decided.units;
    questions.push(decided);
  }
  return { units, maxUnits, pending, questions };
}

type PersonalMark =
  | { kind: "decided"; units: number; source: "grader" | "settled" }
  | { kind: "waiting"; reason: "awaiting_second" | "disagreement" }
  | { kind: "none" };

function personalMark(grades: AnswerGrades | undefined, secondMarking: boolean): PersonalMark {
  if (!grades) return { kind: "none" };
  if (grades.final !== undefined) return { kind: "decided", units: grades.final, source: "settled" };
  if (grades.first === undefined && grades.second === undefined) return { kind: "none" };
  if (!secondMarking) {
    const mark = grades.first ?? grades.second;
    return mark === undefined ? { kind: "none" } : { kind: "decided", units: mark, source: "grader" };
  }
  if (grades.first === undefined || grades.second === undefined) return { kind: "waiting", reason: "awaiting_second" };
  if (grades.first === grades.second) return { kind: "decided", units: grades.first, source: "grader" };
  return { kind: "waiting", reason: "disagreement" };
}
