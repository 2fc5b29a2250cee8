import { defineScreen } from "./registry";

/** The start page of a candidate who has started: Resume instead of Start. */
export default defineScreen({
  name: "candidate-resume",
  setup: async ({ createExam, enrollCandidate, joinAs, context }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    await joinAs(candidate);
    const started = await context.request.post(`/api/exams/${exam.id}/attempts`);
    if (![200, 201].includes(started.status())) throw new Error(await started.text());
    return { candidate };
  },
  url: ({ candidate }) => candidate.joinUrl,
  ready: (page, _data, { words }) => page.getByRole("button", { name: words.candidate.start.resume }),
});
