import type { Page } from "@playwright/test";

import type { Messages } from "../../messages";
import { defineScreen } from "./registry";

function row(page: Page, words: Messages, name: string) {
  return page.getByRole("table", { name: words.proctor.table.label }).getByRole("row").filter({ hasText: name });
}

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
  ready: (page, { candidate }, { words }) => row(page, words, candidate.name),
  states: [
    {
      name: "drawer",
      act: (page, { candidate }, { words }) => row(page, words, candidate.name).click(),
      ready: (page, { candidate }) => page.getByRole("dialog", { name: candidate.name }),
    },
  ],
});
