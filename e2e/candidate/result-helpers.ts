import { randomUUID } from "node:crypto";

import type { APIRequestContext } from "@playwright/test";

import { expect, sampleQuestions, type QuestionInput } from "../fixtures";

// What the result specs share (e2e/candidate/result.spec.ts, e2e/security/csp.spec.ts and the result screens of
// e2e/screens/): a paper submitted through the candidate's own API, and a paper with several result
// versions (submitted, marked, re-scored after a key correction).

/**
 * Starts and submits the paper with `values` (by question, in order) through the candidate's own API: `request`
 * carries their join-link session (a page's `page.request` after opening the join link).
 */
export async function submitPaper(
  request: APIRequestContext,
  examId: string,
  questionIds: string[],
  values: unknown[],
): Promise<string> {
  const started = await request.post(`/api/exams/${examId}/attempts`);
  expect([200, 201], await started.text()).toContain(started.status());
  const { attemptId } = (await started.json()) as { attemptId: string };
  const submitted = await request.post(`/api/attempts/${attemptId}/submit`, {
    headers: { "Idempotency-Key": randomUUID() },
    data: {
      deviceId: "result-spec",
      answers: questionIds.flatMap((questionId, index) =>
        values[index] === undefined ? [] : [{ questionId, value: values[index], version: 1 }],
      ),
    },
  });
  expect(submitted.status(), await submitted.text()).toBe(200);
  return attemptId;
}

type StaffResult = { current: { version: number } | null; versions: { version: number }[] };

/** Waits until the admin API shows the paper's result at `versions` versions (the worker scores within ~1 s). */
export async function waitForVersions(adminApi: APIRequestContext, attemptId: string, versions: number) {
  await expect
    .poll(
      async () => {
        const response = await adminApi.get(`/api/admin/attempts/${attemptId}/result`);
        const body = (await response.json()) as StaffResult;
        return body.versions?.length ?? 0;
      },
      { timeout: 20_000 },
    )
    .toBe(versions);
}

/**
 * The staff result page's exam: the sample paper's single choice with a key that is wrong ("a") until corrected,
 * and its essay, with a rubric.
 */
export function markedQuestions(language: "en" | "zh-CN" = "en"): QuestionInput[] {
  return sampleQuestions({
    types: ["single_choice", "essay"],
    language,
    rubric: true,
    answerKeys: { single_choice: "a" },
  });
}

type AdminQuestion = {
  id: string;
  type: string;
  prompt: string;
  points: number;
  options: unknown[];
  answerKey: unknown;
  rubric: string;
};

/**
 * A submitted paper of a `markedQuestions()` exam with three result versions: submitted (the choice marked wrong
 * under the wrong key "a", the essay waiting), marked (the essay 4 of 5 with a comment), and re-scored after the
 * admin corrected the key to "b" (the choice now right). Returns the attempt id.
 */
export async function paperWithVersions(
  adminApi: APIRequestContext,
  candidateRequest: APIRequestContext,
  exam: { id: string; questionIds: string[] },
  comment: string,
): Promise<string> {
  const [choiceId, essayId] = exam.questionIds;
  const attemptId = await submitPaper(candidateRequest, exam.id, exam.questionIds, [
    "b",
    "Both sides agree their initial sequence numbers.",
  ]);
  await waitForVersions(adminApi, attemptId, 1);

  const marked = await adminApi.put(`/api/admin/exams/${exam.id}/grading/${essayId}/${attemptId}`, {
    data: { marker: "first", points: 4, comment, revision: 0 },
  });
  expect(marked.status(), await marked.text()).toBe(200);
  await waitForVersions(adminApi, attemptId, 2);

  const current = (await (await adminApi.get(`/api/admin/exams/${exam.id}`)).json()) as {
    revision: number;
    questions: AdminQuestion[];
  };
  const questions = current.questions.map((question) =>
    question.type === "single_choice"
      ? {
          id: question.id,
          type: question.type,
          prompt: question.prompt,
          points: question.points,
          options: question.options,
          answerKey: question.id === choiceId ? "b" : question.answerKey,
          rubric: question.rubric,
        }
      : {
          id: question.id,
          type: question.type,
          prompt: question.prompt,
          points: question.points,
          rubric: question.rubric,
        },
  );
  const corrected = await adminApi.patch(`/api/admin/exams/${exam.id}`, {
    data: { revision: current.revision, questions },
  });
  expect(corrected.status(), await corrected.text()).toBe(200);
  await waitForVersions(adminApi, attemptId, 3);
  return attemptId;
}
