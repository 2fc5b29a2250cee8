import { describe, expect, it } from "vitest";

import { CreateExamSchema } from "./exams";

const base = {
  title: "Networking 101",
  durationSeconds: 3600,
  questions: [{ type: "essay", prompt: "Explain TCP." }],
};

function paths(input: unknown): string[] {
  const result = CreateExamSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join("."));
}

describe("CreateExamSchema", () => {
  it("fills defaults: draft, 60 s grace, 1 point", () => {
    const exam = CreateExamSchema.parse(base);
    expect(exam.status).toBe("draft");
    expect(exam.graceSeconds).toBe(60);
    expect(exam.questions[0]?.points).toBe(1);
  });

  it("takes points with up to four decimals, which scores hold exactly, and refuses more", () => {
    const withPoints = (points: number) => ({ ...base, questions: [{ type: "essay", prompt: "?", points }] });
    expect(paths(withPoints(0.3333))).toEqual([]);
    expect(paths(withPoints(2.5))).toEqual([]);
    expect(paths(withPoints(0.33333))).toEqual(["questions.0.points"]);
    expect(paths(withPoints(1e-7))).toEqual(["questions.0.points"]);
  });

  it("accepts every question type of the contract", () => {
    const options = [
      { id: "a", label: "A" },
      { id: "b", label: "B" },
      { id: "c", label: "C" },
    ];
    const exam = CreateExamSchema.parse({
      ...base,
      questions: [
        { type: "single_choice", prompt: "?", options, answerKey: "a" },
        { type: "multiple_choice", prompt: "?", options, answerKey: ["a", "c"] },
        { type: "short_text", prompt: "?" },
        { type: "essay", prompt: "?" },
        { type: "numeric", prompt: "?", answerKey: 42, tolerance: 0.5 },
      ],
    });
    expect(exam.questions).toHaveLength(5);
  });

  it("rejects choice questions with fewer than two options or keys outside the options", () => {
    expect(
      paths({ ...base, questions: [{ type: "single_choice", prompt: "?", options: [{ id: "a", label: "A" }] }] }),
    ).toEqual(["questions.0.options"]);
    expect(
      paths({
        ...base,
        questions: [
          {
            type: "multiple_choice",
            prompt: "?",
            options: [
              { id: "a", label: "A" },
              { id: "b", label: "B" },
            ],
            answerKey: ["a", "a"],
          },
        ],
      }),
    ).toEqual(["questions.0.answerKey.1"]);
  });

  it("rejects bad durations, titles and windows with their paths", () => {
    expect(paths({ ...base, durationSeconds: 1.5 })).toEqual(["durationSeconds"]);
    expect(paths({ ...base, title: "   " })).toEqual(["title"]);
    expect(paths({ ...base, opensAt: "2026-12-01T10:00:00Z", closesAt: "2026-12-01T10:00:00Z" })).toEqual(["closesAt"]);
    expect(paths({ ...base, status: "archived" })).toEqual(["status"]);
  });

  it("rejects option ids that could not be used safely as answer values", () => {
    expect(
      paths({
        ...base,
        questions: [
          {
            type: "single_choice",
            prompt: "?",
            options: [
              { id: "a b", label: "A" },
              { id: "b", label: "B" },
            ],
          },
        ],
      }),
    ).toEqual(["questions.0.options.0.id"]);
  });
});
