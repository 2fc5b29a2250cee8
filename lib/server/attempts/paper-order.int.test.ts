import { describe, expect, it } from "vitest";

import { GET as examRoute, PATCH as patchExamRoute } from "@/app/api/admin/exams/[examId]/route";
import { GET as attemptRoute } from "@/app/api/attempts/[attemptId]/route";
import { POST as startAttemptRoute } from "@/app/api/exams/[examId]/attempts/route";
import { db } from "@/lib/server/db/client";
import { paperOrder } from "@/lib/shared/paper-order";
import type { AdminExam, CandidateQuestion } from "@/lib/shared/schemas/exams";
import { adminToken, createExam, enroll, join } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

const manyQuestions = Array.from({ length: 8 }, (_, i) => ({
  type: "single_choice",
  prompt: `Question ${i + 1}`,
  options: ["a", "b", "c", "d"].map((id) => ({ id, label: `${id.toUpperCase()}${i + 1}` })),
  answerKey: "a",
}));

async function startAll(examId: string, count: number) {
  const candidates = await enroll(examId, count);
  return Promise.all(
    candidates.map(async (candidate) => {
      const cookie = await join(candidate.joinToken);
      const started = await call(startAttemptRoute, { method: "POST", params: { examId }, cookie });
      const view = await call<{ questions: CandidateQuestion[] }>(attemptRoute, {
        params: { attemptId: started.body.attemptId },
        cookie,
      });
      return { attemptId: started.body.attemptId as string, questions: view.body.questions };
    }),
  );
}

describe("shuffled papers", () => {
  it("each candidate sees the order drawn from their attempt's seed, and the paper is rebuilt exactly from it", async () => {
    const exam = await createExam({ questions: manyQuestions, shuffleQuestions: true, shuffleOptions: true });
    const papers = await startAll(exam.id, 6);
    const staffView = await call<AdminExam>(examRoute, { params: { examId: exam.id }, bearer: adminToken() });
    const inExamOrder: CandidateQuestion[] = staffView.body.questions.map(
      ({ id, position, type, prompt, points, options }) => ({
        id,
        position,
        type,
        prompt,
        points,
        options,
      }),
    );

    for (const paper of papers) {
      const { shuffleSeed } = await db.attempt.findUniqueOrThrow({ where: { id: paper.attemptId } });
      const rebuilt = paperOrder(inExamOrder, { shuffleQuestions: true, shuffleOptions: true }, shuffleSeed);
      expect(paper.questions).toEqual(rebuilt);
      expect(paper.questions.map((q) => q.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    }
    // Six candidates, eight questions: their orders are not all the same.
    expect(new Set(papers.map((p) => p.questions.map((q) => q.id).join())).size).toBeGreaterThan(1);
  });

  it("without shuffling, every paper is in the exam's order", async () => {
    const exam = await createExam({ questions: manyQuestions });
    const [paper] = await startAll(exam.id, 1);
    expect(paper!.questions.map((q) => q.id)).toEqual(exam.questions.map((q) => q.id));
    expect(paper!.questions[0]!.options?.map((o) => o.id)).toEqual(["a", "b", "c", "d"]);
  });

  it("the shuffle settings are fixed once an attempt exists", async () => {
    const exam = (await createExam({ questions: manyQuestions, shuffleQuestions: true })) as unknown as AdminExam;
    await startAll(exam.id, 1);
    const refused = await call(patchExamRoute, {
      method: "PATCH",
      params: { examId: exam.id },
      bearer: adminToken(),
      json: { revision: exam.revision, shuffleQuestions: false },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: "QUESTIONS_LOCKED",
      details: { problems: [{ code: "SHUFFLE_CHANGED" }] },
    });
    expect((await db.exam.findUniqueOrThrow({ where: { id: exam.id } })).shuffleQuestions).toBe(true);
  });
});
