import { describe, expect, it } from "vitest";

import { paperOrder } from "./paper-order";
import type { CandidateQuestion } from "./schemas/exams";

const questions: CandidateQuestion[] = Array.from({ length: 8 }, (_, i) => ({
  id: `q${i + 1}`,
  position: i + 1,
  type: "single_choice",
  prompt: `Question ${i + 1}`,
  points: 1,
  options: ["a", "b", "c", "d"].map((id) => ({ id, label: id.toUpperCase() })),
}));

describe("paperOrder", () => {
  it("keeps the exam's order without shuffling", () => {
    expect(paperOrder(questions, { shuffleQuestions: false, shuffleOptions: false }, 42)).toEqual(questions);
  });

  it("is a permutation fixed by the seed, renumbered as shown, options shuffled within their question", () => {
    const settings = { shuffleQuestions: true, shuffleOptions: true };
    const paper = paperOrder(questions, settings, 123_456);
    expect(paperOrder(questions, settings, 123_456)).toEqual(paper);
    expect(paper.map((q) => q.id).sort()).toEqual(questions.map((q) => q.id).sort());
    expect(paper.map((q) => q.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const question of paper) expect(question.options?.map((o) => o.id).sort()).toEqual(["a", "b", "c", "d"]);
    const papers = new Set(
      Array.from({ length: 20 }, (_, seed) =>
        paperOrder(questions, settings, seed)
          .map((q) => q.id)
          .join(),
      ),
    );
    expect(papers.size).toBeGreaterThan(15);
  });

  it("shuffles only the options when asked, leaving the question order alone", () => {
    const paper = paperOrder(questions, { shuffleQuestions: false, shuffleOptions: true }, 7);
    expect(paper.map((q) => q.id)).toEqual(questions.map((q) => q.id));
    expect(paper.some((q) => q.options?.map((o) => o.id).join() !== "a,b,c,d")).toBe(true);
  });
});
