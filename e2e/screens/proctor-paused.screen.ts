import { expect } from "../fixtures";
import { defineScreen, fill } from "./registry";

/** The dashboard of a paused exam, its resume dialog, and the pause dialog for a selection. */
export default defineScreen({
  name: "proctor-paused",
  roles: ["proctor"],
  setup: async ({ createExam, enrollCandidate, assignProctor, adminApi, staff, pick }) => {
    const exam = await createExam();
    await enrollCandidate(exam.id, { name: "Ada Lovelace" });
    const grace = await enrollCandidate(exam.id, { name: "Grace Hopper" });
    await assignProctor(exam.id, staff!);
    const reason = pick("Fire alarm, please stay seated", "火警，请留在座位上");
    const paused = await adminApi.post(`/api/proctor/exams/${exam.id}/pause`, { data: { reason } });
    expect(paused.status(), await paused.text()).toBe(200);
    return { exam, grace };
  },
  url: ({ exam }) => `/proctor/exams/${exam.id}`,
  ready: (page, _data, { words }) => page.getByRole("button", { name: words.proctor.pause.resumeExam }),
  states: [
    {
      name: "resume-dialog",
      act: (page, _data, { words }) => page.getByRole("button", { name: words.proctor.pause.resumeExam }).click(),
      ready: (page, _data, { words }) => page.getByRole("dialog", { name: words.proctor.pause.titleResumeExam }),
      capture: "viewport",
    },
    {
      name: "pause-dialog-selection",
      act: async (page, { grace }, { words }) => {
        await page.keyboard.press("Escape");
        await expect(page.getByRole("dialog")).toHaveCount(0);
        await page.getByRole("checkbox", { name: fill(words.proctor.table.select, { name: grace.name }) }).check();
        await page.getByRole("button", { name: words.proctor.toolbar.pauseSelected }).click();
      },
      ready: (page, _data, { words }) =>
        page.getByRole("dialog").getByRole("textbox", { name: words.proctor.pause.reason }),
      capture: "viewport",
    },
  ],
});
