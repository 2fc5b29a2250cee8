import { defineScreen } from "./registry";

/** An exam's address opened without a join link. */
export default defineScreen({
  name: "exam-without-join-link",
  setup: async ({ createExam }) => ({ exam: await createExam() }),
  url: ({ exam }) => `/exam/${exam.id}`,
  ready: (page, _data, { words }) =>
    page.getByRole("heading", { level: 1, name: words.candidate.joinLinkNeeded.title }),
});
