import { describe, expect, it } from "vitest";

import { PatchExamSchema, type AdminExam } from "@/lib/shared/schemas/exams";

import { draftOf, moveItem, nextOptionId, patchBody } from "./exam-draft";

const exam: AdminExam = {
  id: "0190f5c0-0000-7000-8000-000000000001",
  revision: 3,
  title: "Networks",
  description: "",
  rules: "",
  status: "draft",
  durationSeconds: 5400,
  graceSeconds: 60,
  opensAt: "2026-12-01T01:30:00.000Z",
  closesAt: "2026-12-01T05:30:00.000Z",
  lateAnswers: "keep_for_review",
  resultsVisibility: "never",
  resultsDetail: "per_question",
  secondMarking: false,
  shuffleQuestions: true,
  shuffleOptions: false,
  updatedAt: "2026-11-30T00:00:00.000Z",
  attemptCount: 0,
  questions: [
    {
      id: "0190f5c0-0000-7000-8000-0000000000a1",
      position: 1,
      type: "multiple_choice",
      prompt: "Transport protocols?",
      points: 2,
      options: [
        { id: "a", label: "TCP" },
        { id: "b", label: "IP" },
      ],
      answerKey: ["a"],
      tolerance: null,
      scoring: "all_or_nothing",
      exactMatch: false,
      ungraded: false,
      rubric: "",
    },
    {
      id: "0190f5c0-0000-7000-8000-0000000000a2",
      position: 2,
      type: "short_text",
      prompt: "Loopback?",
      points: 1,
      options: [],
      answerKey: ["127.0.0.1", "localhost"],
      tolerance: null,
      scoring: null,
      exactMatch: true,
      ungraded: false,
      rubric: "",
    },
    {
      id: "0190f5c0-0000-7000-8000-0000000000a3",
      position: 3,
      type: "numeric",
      prompt: "Bits in IPv4?",
      points: 1,
      options: [],
      answerKey: 32,
      tolerance: 0.5,
      scoring: null,
      exactMatch: false,
      ungraded: false,
      rubric: "",
    },
  ],
};

describe("the editor's draft", () => {
  it("turns an exam into a draft and back into a PATCH body the route accepts, unchanged", () => {
    const body = patchBody(draftOf(exam, "Asia/Shanghai"), exam.revision, "Asia/Shanghai");
    const parsed = PatchExamSchema.parse(body);
    expect(parsed).toMatchObject({
      revision: 3,
      durationSeconds: 5400,
      opensAt: "2026-12-01T01:30:00.000Z",
      closesAt: "2026-12-01T05:30:00.000Z",
      resultsVisibility: "never",
    });
    expect(parsed.questions?.map((q) => ("answerKey" in q ? q.answerKey : undefined))).toEqual([
      ["a"],
      ["127.0.0.1", "localhost"],
      32,
    ]);
    expect(parsed.questions?.[0]).toMatchObject({ scoring: "all_or_nothing", id: exam.questions[0]!.id });
    expect(parsed.questions?.[1]).toMatchObject({ exactMatch: true });
    expect(parsed.questions?.[2]).toMatchObject({ tolerance: 0.5 });
  });

  it("carries the results settings and each question's rubric into the PATCH body", () => {
    const withResults = {
      ...exam,
      resultsDetail: "total" as const,
      secondMarking: true,
      questions: exam.questions.map((question, index) => ({ ...question, rubric: index === 1 ? "Either form." : "" })),
    };
    const draft = draftOf(withResults, "UTC");
    expect(draft).toMatchObject({ resultsDetail: "total", secondMarking: true });
    const parsed = PatchExamSchema.parse(patchBody(draft, 3, "UTC"));
    expect(parsed).toMatchObject({ resultsDetail: "total", secondMarking: true });
    expect(parsed.questions?.map((question) => question.rubric)).toEqual(["", "Either form.", ""]);
  });

  it("sends what could not be read as a number as typed, so the server names the field", () => {
    const draft = { ...draftOf(exam, "UTC"), durationMinutes: "ninety" };
    const result = PatchExamSchema.safeParse(patchBody(draft, 3, "UTC"));
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join("."))).toEqual(["durationSeconds"]);
  });

  it("an always-open exam clears both ends of the window", () => {
    const body = patchBody({ ...draftOf(exam, "UTC"), isAlwaysOpen: true }, 3, "UTC");
    expect([body.opensAt, body.closesAt]).toEqual([null, null]);
  });

  it("moves items and picks free option ids", () => {
    expect(moveItem(["a", "b", "c"], 2, 0)).toEqual(["c", "a", "b"]);
    expect(
      nextOptionId([
        { id: "a", label: "" },
        { id: "c", label: "" },
      ]),
    ).toBe("b");
  });
});
