import { expect } from "../fixtures";
import { defineScreen } from "./registry";

/**
 * The admin's page of one exam: its facts, questions, candidates, proctors and graders; a grader assigned through
 * the Graders section; the delete confirmation.
 */
export default defineScreen({
  name: "admin-exam",
  roles: ["admin"],
  setup: async ({ createExam, enrollCandidate, createStaff, assignProctor, pick }) => {
    const hour = 3600 * 1000;
    const exam = await createExam({
      title: pick("Networking 101 — final exam", "网络基础 — 期末考试"),
      opensAt: new Date(Date.now() - hour).toISOString(),
      closesAt: new Date(Date.now() + 6 * hour).toISOString(),
    });
    await enrollCandidate(exam.id, { name: pick("Ada Lovelace", "王伟"), extraSeconds: 900 });
    await enrollCandidate(exam.id, { name: "Grace Hopper" });
    await assignProctor(exam.id, await createStaff("proctor"));
    const grader = await createStaff("grader");
    await createStaff("grader"); // one more to choose from
    return { exam, grader };
  },
  url: ({ exam }) => `/admin/exams/${exam.id}`,
  ready: (page, { exam }) => page.getByRole("heading", { level: 1, name: exam.title }),
  states: [
    {
      name: "graders",
      act: async (page, { grader }, { words }) => {
        const section = page.getByRole("region", { name: words.account.graders.heading });
        await section.getByLabel(words.account.graders.choose).selectOption(grader.id);
        await section.getByRole("button", { name: words.account.graders.assign }).click();
        await expect(section.getByRole("list").getByText(grader.name)).toBeVisible();
        await section.scrollIntoViewIfNeeded();
      },
      ready: (page, _data, { words }) => page.getByRole("region", { name: words.account.graders.heading }),
      capture: (page, _data, { words }) => page.getByRole("region", { name: words.account.graders.heading }),
    },
    {
      name: "delete-confirmation",
      act: (page, _data, { words }) =>
        page.getByRole("button", { name: words.authoring.lifecycle.delete, exact: true }).click(),
      ready: async (page, _data, { words }) => {
        const dialog = page.getByRole("dialog", { name: words.authoring.lifecycle.deleteConfirmTitle });
        await expect(dialog.getByRole("heading", { level: 2 })).toBeFocused();
      },
      capture: "viewport",
    },
  ],
});
