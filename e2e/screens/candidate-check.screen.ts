import { defineScreen } from "./registry";

/** The pre-exam check of the candidate's device. */
export default defineScreen({
  name: "candidate-check",
  setup: async ({ createExam, enrollCandidate, joinAs }) => {
    const exam = await createExam();
    await joinAs(await enrollCandidate(exam.id));
    return { exam };
  },
  url: ({ exam }) => `/exam/${exam.id}/check`,
  ready: (page, _data, { words }) => page.getByRole("heading", { level: 1, name: words.candidate.checkPage.title }),
});
