import type { AnswerValue } from "@/lib/shared/schemas/attempts";

import { scoreAnswer, type AutoScore, type ScorableQuestion } from "./score-answer";

export type PaperScore = {
  /** Sum of the decided scores, in units (score-units.ts). */
  units: number;
  /** Sum of every graded question's points, in units: what a perfect paper scores. */
  maxUnits: number;
  /** Questions a person still has to grade; the paper is `graded` when this is 0. */
  pending: number;
  perQuestion: Map<string, AutoScore>;
};

/** Every question of a paper scored automatically; `answers` maps question id → frozen value. */
export function scorePaper(
  questions: readonly (ScorableQuestion & { id: string })[],
  answers: ReadonlyMap<string, AnswerValue>,
): PaperScore {
  const perQuestion = new Map<string, AutoScore>();
  let units = 0;
  let maxUnits = 0;
  let pending = 0;
  for (const question of questions) {
    const score = scoreAnswer(question, answers.get(question.id));
    perQuestion.set(question.id, score);
    if (score.kind === "ungraded") continue;
    maxUnits += score.maxUnits;
    if (score.kind === "scored") units += score.units;
    else pending += 1;
  }
  return { units, maxUnits, pending, perQuestion };
}
