import { expect } from "../fixtures";
import { defineScreen } from "./registry";

/** The dashboard's announcements panel: folded with one sent (its line names it), then open, a second one being confirmed. */
export default defineScreen({
  name: "proctor-announcements",
  roles: ["proctor"],
  setup: async ({ createExam, enrollCandidate, assignProctor, adminApi, staff, pick }) => {
    const exam = await createExam();
    await enrollCandidate(exam.id, { name: "Ada Lovelace" });
    await enrollCandidate(exam.id, { name: "Grace Hopper" });
    await assignProctor(exam.id, staff!);
    const sent = await adminApi.post(`/api/proctor/exams/${exam.id}/announcements`, {
      data: {
        message: pick(
          "Question 3: read “metres” as “meters”. Nothing else changes.",
          "第 3 题：“米”按公制理解，其他不变。",
        ),
      },
    });
    expect(sent.status(), await sent.text()).toBe(201);
    return { exam };
  },
  url: ({ exam }) => `/proctor/exams/${exam.id}`,
  ready: async (page, _data, { words, pick }) => {
    // Folded: one line says how many were sent and the latest, the list itself is not shown.
    const panel = page.getByRole("region", { name: words.proctor.announcements.title, exact: true });
    await expect(panel.locator("summary")).toContainText(pick("Question 3: read", "第 3 题："));
    await expect(page.getByRole("list", { name: words.proctor.announcements.listLabel })).toBeHidden();
  },
  states: [
    {
      name: "confirm",
      act: async (page, _data, { words, pick }) => {
        await page
          .getByRole("region", { name: words.proctor.announcements.title, exact: true })
          .locator("summary")
          .click();
        await expect(
          page.getByRole("list", { name: words.proctor.announcements.listLabel }).getByRole("listitem"),
        ).toHaveCount(1);
        await page
          .getByRole("textbox", { name: words.proctor.announcements.message })
          .fill(pick("10 minutes left.", "还剩 10 分钟。"));
        await page.getByRole("button", { name: words.proctor.announcements.send }).click();
      },
      ready: (page, _data, { words }) => page.getByRole("group", { name: words.proctor.announcements.confirmLabel }),
    },
  ],
});
