import { candidateRow } from "../proctor/dashboard-page";
import { defineScreen } from "./registry";

/** The live dashboard of an exam, and a candidate's drawer open. */
export default defineScreen({
  name: "proctor-dashboard",
  roles: ["proctor"],
  setup: async ({ createExam, enrollCandidate, assignProctor, staff, pick }) => {
    const exam = await createExam({ title: pick("Networking 101 — final exam", "网络基础 — 期末考试") });
    const candidate = await enrollCandidate(exam.id, { name: pick("Ada Lovelace", "王伟"), extraSeconds: 900 });
    await enrollCandidate(exam.id, { name: "Grace Hopper" });
    await assignProctor(exam.id, staff!);
    return { exam, candidate };
  },
  url: ({ exam }) => `/proctor/exams/${exam.id}`,
  ready: (page, { candidate }, { words }) => candidateRow(page, candidate.name, words),
  states: [
    {
      name: "drawer",
      act: (page, { candidate }, { words }) => candidateRow(page, candidate.name, words).click(),
      ready: (page, { candidate }) => page.getByRole("dialog", { name: candidate.name }),
    },
  ],
});
