import { describe, expect, it } from "vitest";

import { computePaperResult, type AnswerGrades } from "./paper-result";
import type { ScorableQuestion } from "./score-answer";

const base = { tolerance: null, scoring: null, exactMatch: false, ungraded: false } as const;
const questions: (ScorableQuestion & { id: string })[] = [
  { id: "choice", ...base, type: "single_choice", points: 1, answerKey: "a" },
  { id: "essay", ...base, type: "essay", points: 5, answerKey: null },
  { id: "text", ...base, type: "short_text", points: 2, answerKey: ["Paris"] },
  { id: "survey", ...base, type: "single_choice", points: 1, answerKey: null, ungraded: true },
];
const answers = new Map<string, string>([
  ["choice", "b"],
  ["essay", "An essay."],
  ["text", "Lutetia"],
  ["survey", "x"],
]);

function result(options: {
  grades?: Record<string, AnswerGrades>;
  acceptedLate?: Record<string, string>;
  secondMarking?: boolean;
}) {
  return computePaperResult({
    questions,
    answers,
    acceptedLate: new Map(
      Object.entries(options.acceptedLate ?? {}).map(([id, value]) => [id, { lateAnswerId: `late-${id}`, value }]),
    ),
    grades: new Map(Object.entries(options.grades ?? {})),
    secondMarking: options.secondMarking ?? false,
  });
}

describe("computePaperResult", () => {
  it("scores what it can and leaves the essay and the unmatched text to people", () => {
    const paper = result({});
    expect(paper).toMatchObject({ units: 0, maxUnits: 80_000, pending: 2 });
    expect(paper.questions.map((q) => [q.questionId, q.source, q.reason])).toEqual([
      ["choice", "auto", "incorrect"],
      ["essay", "pending", "essay"],
      ["text", "pending", "no_match"],
      ["survey", "ungraded", "ungraded"],
    ]);
  });

  it("a person's mark decides, capped at the question's points", () => {
    const paper = result({ grades: { essay: { first: 35_000 }, text: { first: 99_999 } } });
    expect(paper).toMatchObject({ units: 35_000 + 20_000, pending: 0 });
    expect(paper.questions[1]).toMatchObject({ source: "grader", units: 35_000 });
  });

  it("an accepted late answer is scored instead of the frozen one, and names itself", () => {
    const paper = result({ acceptedLate: { choice: "a" } });
    expect(paper.questions[0]).toMatchObject({ units: 10_000, source: "auto", lateAnswerId: "late-choice" });
    expect(paper.units).toBe(10_000);
  });

  it("with double marking, waits for the second marker, then for agreement or an admin's settlement", () => {
    expect(result({ secondMarking: true, grades: { essay: { first: 30_000 } } }).questions[1]).toMatchObject({
      source: "pending",
      reason: "awaiting_second",
    });
    expect(
      result({ secondMarking: true, grades: { essay: { first: 30_000, second: 40_000 } } }).questions[1],
    ).toMatchObject({ source: "pending", reason: "disagreement", units: null });
    expect(
      result({ secondMarking: true, grades: { essay: { first: 30_000, second: 30_000 } } }).questions[1],
    ).toMatchObject({ source: "grader", units: 30_000 });
    expect(
      result({ secondMarking: true, grades: { essay: { first: 30_000, second: 40_000, final: 35_000 } } }).questions[1],
    ).toMatchObject({ source: "settled", units: 35_000 });
  });
});
