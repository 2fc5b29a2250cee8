import { expect } from "../fixtures";
import { expectExamReady, startAttempt } from "./candidate-steps";
import { defineScreen, fill } from "./registry";

/** The exam page while the proctor has paused the exam. */
export default defineScreen({
  name: "exam-paused",
  setup: async ({ createExam, enrollCandidate, joinAs, context }) => {
    const exam = await createExam();
    await joinAs(await enrollCandidate(exam.id, { name: "Ada Lovelace" }));
    return { exam, attemptId: await startAttempt(context, exam.id) };
  },
  url: ({ attemptId }) => `/attempts/${attemptId}`,
  ready: async (page, { exam }, { adminApi, words, pick }) => {
    await expectExamReady(page, words);
    const reason = pick("Fire alarm, please stay seated", "火警，请留在座位上");
    const paused = await adminApi.post(`/api/proctor/exams/${exam.id}/pause`, { data: { reason } });
    expect(paused.status(), await paused.text()).toBe(200);
    await expect(page.getByRole("heading", { level: 2, name: fill(words.exam.pause.title, { reason }) })).toBeVisible();
  },
});
