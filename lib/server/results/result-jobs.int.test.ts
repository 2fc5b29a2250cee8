import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { GET as getExamRoute, PATCH as patchExamRoute } from "@/app/api/admin/exams/[examId]/route";
import { db } from "@/lib/server/db/client";
import { questionInputOf } from "@/lib/server/exams/question-data";
import { autosave, startedAttempt, submit, type StartedAttempt } from "@/test-support/server/attempts";
import { adminToken } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { scoreNow } from "@/test-support/server/results";

import { drainResultJobs } from "./result-jobs";

function questionId(attempt: StartedAttempt, type: string): string {
  return attempt.questions.find((q) => q.type === type)!.id;
}

async function submitted(values: Record<string, unknown>): Promise<StartedAttempt> {
  const attempt = await startedAttempt();
  const answers = Object.entries(values).map(([type, value]) => ({
    questionId: questionId(attempt, type),
    value,
    version: 1,
  }));
  expect((await autosave(attempt, { deviceId: "laptop", answers })).status).toBe(200);
  expect((await submit(attempt, { deviceId: "laptop" }, randomUUID())).status).toBe(200);
  return attempt;
}

describe("result jobs: a submit queues its scoring, a corrected key queues a regrade", () => {
  it("a submit queues exactly one job in its own transaction; draining writes result version 1", async () => {
    const attempt = await submitted({ single_choice: "b", numeric: 6, essay: "An essay." });
    const job = await db.resultJob.findUnique({ where: { attemptId: attempt.attemptId } });
    expect(job).toMatchObject({ cause: "submitted", actorType: "system" });
    expect(await db.result.findUnique({ where: { attemptId: attempt.attemptId } })).toBeNull();

    await scoreNow(attempt.attemptId);
    const result = await db.result.findUnique({ where: { attemptId: attempt.attemptId } });
    expect(result).toMatchObject({ version: 1, pending: 1 }); // the essay
    expect(Number(result!.scoreUnits)).toBe(20_000);
  });

  it("an answer-key correction through PATCH re-scores the paper with the editor and the fields as the reason", async () => {
    const attempt = await submitted({ single_choice: "a" });
    await scoreNow(attempt.attemptId);
    expect(Number((await db.result.findUnique({ where: { attemptId: attempt.attemptId } }))!.scoreUnits)).toBe(0);

    const exam = await call(getExamRoute, { params: { examId: attempt.examId }, bearer: adminToken() });
    const questions = exam.body.questions.map((question: Parameters<typeof questionInputOf>[0]) =>
      questionInputOf(question.type === "single_choice" ? { ...question, answerKey: "a" } : question),
    );
    const patched = await call(patchExamRoute, {
      method: "PATCH",
      params: { examId: attempt.examId },
      bearer: adminToken(),
      json: { revision: exam.body.revision, questions },
    });
    expect(patched.status).toBe(200);
    expect(await db.resultJob.findUnique({ where: { attemptId: attempt.attemptId } })).toMatchObject({
      cause: "regraded",
      actorType: "api-token",
      actorLabel: "API token",
      reason: "corrected: Q1 answerKey",
    });

    await scoreNow(attempt.attemptId);
    const versions = await db.resultVersion.findMany({
      where: { attemptId: attempt.attemptId },
      orderBy: { version: "asc" },
    });
    expect(versions.map((v) => [v.version, v.cause, Number(v.scoreUnits), v.actorLabel, v.reason])).toEqual([
      [1, "submitted", 0, "Holdfast", ""],
      [2, "regraded", 10_000, "API token", "corrected: Q1 answerKey"],
    ]);
  });

  it("a prompt typo fix queues nothing", async () => {
    const attempt = await submitted({ single_choice: "b" });
    await scoreNow(attempt.attemptId);
    const exam = await call(getExamRoute, { params: { examId: attempt.examId }, bearer: adminToken() });
    const questions = exam.body.questions.map((question: Parameters<typeof questionInputOf>[0], index: number) =>
      questionInputOf(index === 0 ? { ...question, prompt: `${question.prompt} (fixed)` } : question),
    );
    const patched = await call(patchExamRoute, {
      method: "PATCH",
      params: { examId: attempt.examId },
      bearer: adminToken(),
      json: { revision: exam.body.revision, questions },
    });
    expect(patched.status).toBe(200);
    expect(await db.resultJob.count({ where: { attemptId: attempt.attemptId } })).toBe(0);
  });

  it("two drains at once never take the same job, and every job is scored once", async () => {
    const attempts = await Promise.all(Array.from({ length: 4 }, () => submitted({ single_choice: "b" })));
    const taken = await Promise.all([drainResultJobs(2), drainResultJobs(2), drainResultJobs(2)]);
    expect(taken.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(4);
    for (const attempt of attempts) await scoreNow(attempt.attemptId);
    for (const attempt of attempts) {
      expect(await db.resultVersion.count({ where: { attemptId: attempt.attemptId } })).toBe(1);
    }
  });
});
