import { startAttempt } from "./candidate-steps";
import { defineScreen } from "./registry";

/** The exam page of a paper a proctor force-submitted: the receipt. */
export default defineScreen({
  name: "exam-submitted",
  setup: async ({ createExam, enrollCandidate, joinAs, context, adminApi }) => {
    const exam = await createExam();
    await joinAs(await enrollCandidate(exam.id));
    const attemptId = await startAttempt(context, exam.id);
    const forced = await adminApi.post(`/api/proctor/attempts/${attemptId}/force-submit`, {
      data: { reason: "screen registry" },
    });
    if (forced.status() !== 200) throw new Error(await forced.text());
    return { attemptId };
  },
  url: ({ attemptId }) => `/attempts/${attemptId}`,
  ready: (page, _data, { words }) => page.getByRole("heading", { level: 2, name: words.exam.final.title }),
});
