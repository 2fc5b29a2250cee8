// Results in integration tests: a submit queues its scoring (lib/server/results/result-jobs.ts); a test that
// reads a result drains the queue until that paper's job is done, as the app's worker would within a second.
import { randomUUID } from "node:crypto";

import { POST as enrollRoute } from "@/app/api/admin/exams/[examId]/candidates/route";
import { POST as startAttemptRoute } from "@/app/api/exams/[examId]/attempts/route";
import { db } from "@/lib/server/db/client";
import { drainResultJobs } from "@/lib/server/results/result-jobs";

import { autosave, submit } from "./attempts";
import { adminToken, createExam, join } from "./fixtures";
import { call } from "./http";
import { OBJECTIVE_TYPES, sampleQuestions } from "../shared/sample-exam";

/** Drains the results queue until these attempts have no job left (other tests' jobs may go along the way). */
export async function scoreNow(...attemptIds: string[]): Promise<void> {
  for (let round = 0; round < 50; round += 1) {
    if ((await db.resultJob.count({ where: { attemptId: { in: attemptIds } } })) === 0) return;
    await drainResultJobs();
  }
  throw new Error(`the results of ${attemptIds.join(", ")} were never computed`);
}

/**
 * An exam of the sample exam's three objective questions (test-support/shared/sample-exam.ts: single choice key
 * "b", 1 point; multiple choice key a+b, 2 with partial credit; numeric key 6, 1) and one paper submitted per entry
 * of `papers` (question position → value; a missing position is unanswered), each scored. The statistics and
 * export tests read their figures off these papers.
 */
export async function scoredPapers(
  papers: readonly Record<number, unknown>[],
  names: readonly string[] = papers.map((_, index) => `Candidate ${index + 1}`),
): Promise<{ examId: string; questions: { id: string; position: number }[]; attemptIds: string[] }> {
  const exam = await createExam({ questions: sampleQuestions({ types: OBJECTIVE_TYPES }) });
  if (papers.length === 0) return { examId: exam.id, questions: exam.questions, attemptIds: [] };
  const enrolled = await call(enrollRoute, {
    params: { examId: exam.id },
    bearer: adminToken(),
    json: { candidates: names.map((name) => ({ name, email: `${randomUUID()}@example.test` })) },
  });
  if (enrolled.status !== 201) throw new Error(`enroll: ${enrolled.status} ${enrolled.text}`);
  const candidates = enrolled.body.candidates as { joinToken: string }[];
  const attemptIds: string[] = [];
  for (const [index, paper] of papers.entries()) {
    const cookie = await join(candidates[index]!.joinToken);
    const started = await call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie });
    const attempt = { attemptId: started.body.attemptId as string, cookie };
    const answers = Object.entries(paper).map(([position, value]) => ({
      questionId: exam.questions.find((question) => question.position === Number(position))!.id,
      value,
      version: 1,
    }));
    if (answers.length > 0) {
      const saved = await autosave(attempt, { deviceId: "laptop", answers });
      if (saved.status !== 200) throw new Error(`autosave: ${saved.status} ${saved.text}`);
    }
    const submitted = await submit(attempt, { deviceId: "laptop" }, randomUUID());
    if (submitted.status !== 200) throw new Error(`submit: ${submitted.status} ${submitted.text}`);
    attemptIds.push(attempt.attemptId);
  }
  await scoreNow(...attemptIds);
  return { examId: exam.id, questions: exam.questions, attemptIds };
}
