import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { autosave, startedAttempt, submit } from "@/test-support/server/attempts";
import { scoreNow } from "@/test-support/server/results";

import { findLateAnswersPage } from "./find-late-answers-page";

describe("findLateAnswersPage", () => {
  it("groups the late answers by candidate, with the current total and the questions' options to read them by", async () => {
    const attempt = await startedAttempt();
    const single = attempt.questions.find((q) => q.type === "single_choice")!;
    const numeric = attempt.questions.find((q) => q.type === "numeric")!;
    expect((await submit(attempt, { deviceId: "laptop" }, randomUUID())).status).toBe(200);
    const late = await autosave(attempt, {
      deviceId: "phone",
      answers: [
        { questionId: single.id, value: "b", version: 1 },
        { questionId: numeric.id, value: 6, version: 1 },
      ],
    });
    expect(late.status).toBe(409);
    await scoreNow(attempt.attemptId);

    const page = await findLateAnswersPage({ examId: attempt.examId });
    expect(page!.candidates).toHaveLength(1);
    const [candidate] = page!.candidates;
    expect(candidate).toMatchObject({ attemptId: attempt.attemptId, total: { scoreUnits: 0, maxUnits: 100_000 } });
    expect(candidate!.lateAnswers.map((row) => row.questionId).sort()).toEqual([single.id, numeric.id].sort());
    expect(page!.questions.find((q) => q.id === single.id)!.options).toEqual([
      { id: "a", label: "Data link" },
      { id: "b", label: "Network" },
      { id: "c", label: "Transport" },
    ]);
  });

  it("is empty for an exam without late answers, and null for no exam", async () => {
    const attempt = await startedAttempt();
    expect(await findLateAnswersPage({ examId: attempt.examId })).toMatchObject({ candidates: [] });
    expect(await findLateAnswersPage({ examId: randomUUID() })).toBeNull();
  });
});
