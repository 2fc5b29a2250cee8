import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { db } from "@/lib/server/db/client";
import { autosave, startedAttempt, submit, type StartedAttempt } from "@/test-support/server/attempts";
import { enroll, join } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { POST as startAttemptRoute } from "@/app/api/exams/[examId]/attempts/route";

import { recomputeResults, SYSTEM_ACTOR, type ResultActor } from "./recompute-results";

/** Every submitted paper of the exam scored again in one transaction, as a corrected key's jobs would be. */
async function regradeExam(options: {
  examId: string;
  actor: ResultActor;
  reason?: string;
}): Promise<{ papers: number; changed: number }> {
  const papers = await db.attempt.findMany({
    where: { examId: options.examId, status: "submitted" },
    select: { id: true },
  });
  const changed = await db.$transaction((tx) =>
    recomputeResults(tx, { ...options, attemptIds: papers.map((paper) => paper.id), cause: "regraded" }),
  );
  return { papers: papers.length, changed };
}

/** The sample exam: single (1 pt, key b), multiple (2 pts, key a+b, partial), short text, essay (5), numeric (6). */
function byType(attempt: StartedAttempt, type: string): string {
  const question = attempt.questions.find((q) => q.type === type);
  if (!question) throw new Error(`no ${type} question`);
  return question.id;
}

async function answerAndSubmit(attempt: StartedAttempt, values: Record<string, unknown>): Promise<void> {
  const answers = Object.entries(values).map(([type, value]) => ({
    questionId: byType(attempt, type),
    value,
    version: 1,
  }));
  const saved = await autosave(attempt, { deviceId: "laptop", answers });
  expect(saved.status).toBe(200);
  const submitted = await submit(attempt, { deviceId: "laptop" }, randomUUID());
  expect(submitted.status).toBe(200);
}

async function anotherSubmittedAttempt(base: StartedAttempt, values: Record<string, unknown>): Promise<StartedAttempt> {
  const [candidate] = await enroll(base.examId);
  const cookie = await join(candidate!.joinToken);
  const started = await call(startAttemptRoute, { method: "POST", params: { examId: base.examId }, cookie });
  expect(started.status).toBe(201);
  const attempt = { ...base, attemptId: started.body.attemptId as string, cookie, enrollmentId: candidate!.id };
  await answerAndSubmit(attempt, values);
  return attempt;
}

async function resultOf(attemptId: string) {
  return db.result.findUnique({ where: { attemptId } });
}

describe("results: recompute and regrade", () => {
  it("scores a submitted paper exactly, and a repeat with nothing changed makes no version", async () => {
    const attempt = await startedAttempt();
    await answerAndSubmit(attempt, { single_choice: "b", multiple_choice: ["a", "c"], numeric: 6, essay: "Text" });
    const { papers, changed } = await regradeExam({ examId: attempt.examId, actor: SYSTEM_ACTOR });
    expect({ papers, changed }).toEqual({ papers: 1, changed: 1 });
    const result = await resultOf(attempt.attemptId);
    // 1 (single) + 0 (multiple: 1 right − 1 wrong) + 1 (numeric); the essay waits; short text blank → 0.
    expect(Number(result!.scoreUnits)).toBe(20_000);
    expect(Number(result!.maxUnits)).toBe(100_000);
    expect(result!.pending).toBe(1);
    expect(result!.version).toBe(1);

    expect(await regradeExam({ examId: attempt.examId, actor: SYSTEM_ACTOR })).toEqual({ papers: 1, changed: 0 });
    const versions = await db.resultVersion.findMany({ where: { attemptId: attempt.attemptId } });
    expect(versions.map((v) => [v.version, v.cause])).toEqual([[1, "submitted"]]);
  });

  it("a corrected key makes a new version with who and why; the earlier one stays readable", async () => {
    const attempt = await startedAttempt();
    await answerAndSubmit(attempt, { single_choice: "a" });
    await regradeExam({ examId: attempt.examId, actor: SYSTEM_ACTOR });
    expect(Number((await resultOf(attempt.attemptId))!.scoreUnits)).toBe(0);

    await db.question.update({ where: { id: byType(attempt, "single_choice") }, data: { answerKey: "a" } });
    const actor = { type: "system" as const, label: "key correction test" };
    expect(await regradeExam({ examId: attempt.examId, actor, reason: "key was wrong" })).toEqual({
      papers: 1,
      changed: 1,
    });
    const versions = await db.resultVersion.findMany({
      where: { attemptId: attempt.attemptId },
      orderBy: { version: "asc" },
    });
    expect(versions.map((v) => [v.version, v.cause, Number(v.scoreUnits), v.actorLabel, v.reason])).toEqual([
      [1, "submitted", 0, "Holdfast", ""],
      [2, "regraded", 10_000, "key correction test", "key was wrong"],
    ]);
    expect((await resultOf(attempt.attemptId))!.version).toBe(2);
  });

  it("parallel recomputes of the same papers serialise: versions stay unique and the last one is right", async () => {
    const first = await startedAttempt();
    const others = await Promise.all(
      Array.from({ length: 3 }, () => anotherSubmittedAttempt(first, { single_choice: "b", numeric: 5 })),
    );
    await answerAndSubmit(first, { single_choice: "b" });
    const ids = [first, ...others].map((attempt) => attempt.attemptId);
    // Eight writers at once over the same four papers, half of them after a key change.
    await db.question.update({ where: { id: byType(first, "numeric") }, data: { tolerance: 1 } });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, (_, index) =>
        db.$transaction((tx) =>
          recomputeResults(tx, {
            examId: first.examId,
            attemptIds: index % 2 ? ids : [...ids].reverse(),
            cause: "regraded",
            actor: SYSTEM_ACTOR,
          }),
        ),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(Array(8).fill("fulfilled"));
    const changedTotal = outcomes.reduce((sum, o) => sum + (o.status === "fulfilled" ? o.value : 0), 0);
    expect(changedTotal).toBe(4); // each paper got exactly one version: the first writer's; the rest saw no change
    for (const attempt of others) {
      const result = await resultOf(attempt.attemptId);
      expect(Number(result!.scoreUnits)).toBe(20_000); // 5 is within the new tolerance of 1
      expect(result!.version).toBe(1);
    }
  });

  it("result versions cannot be edited or deleted, but go with a deleted exam", async () => {
    const attempt = await startedAttempt();
    await answerAndSubmit(attempt, { single_choice: "b" });
    await regradeExam({ examId: attempt.examId, actor: SYSTEM_ACTOR });
    await expect(
      db.$executeRaw`UPDATE result_versions SET score_units = 0 WHERE attempt_id = ${attempt.attemptId}::uuid`,
    ).rejects.toThrow(/append-only/);
    await expect(
      db.$executeRaw`DELETE FROM result_versions WHERE attempt_id = ${attempt.attemptId}::uuid`,
    ).rejects.toThrow(/append-only/);
    await db.exam.delete({ where: { id: attempt.examId } });
    expect(await db.resultVersion.count({ where: { attemptId: attempt.attemptId } })).toBe(0);
  });
});
