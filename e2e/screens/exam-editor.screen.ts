import { expect } from "../fixtures";
import { defineScreen } from "./registry";

/** The exam editor of a draft, its edit conflict after someone else saved, and the preview as a candidate. */
export default defineScreen({
  name: "exam-editor",
  roles: ["admin"],
  setup: async ({ createExam, pick }) => {
    const hour = 3600 * 1000;
    const title = pick("Networking 101 — final exam", "网络基础 — 期末考试");
    const exam = await createExam({
      title,
      status: "draft",
      opensAt: new Date(Date.now() + 24 * hour).toISOString(),
      closesAt: new Date(Date.now() + 27 * hour).toISOString(),
    });
    return { exam, title };
  },
  url: ({ exam }) => `/admin/exams/${exam.id}/edit`,
  ready: async (page, { title }, { words }) => {
    await expect(page.getByLabel(words.authoring.editor.title, { exact: true })).toHaveValue(title);
  },
  states: [
    {
      name: "conflict",
      act: async (page, { exam, title }, { adminApi, words }) => {
        // Someone else saves behind this page's back; this page's save then meets the conflict.
        const theirs = await adminApi.patch(`/api/admin/exams/${exam.id}`, {
          data: { revision: 1, title: `${title} ★`, durationSeconds: 5400 },
        });
        expect(theirs.status(), await theirs.text()).toBe(200);
        await page.getByLabel(words.authoring.editor.title, { exact: true }).fill(`${title} (mine)`);
        await page.getByRole("button", { name: words.authoring.editor.save }).click();
      },
      ready: (page, _data, { words }) => page.getByRole("heading", { name: words.authoring.conflict.title }),
    },
    {
      name: "preview",
      act: (page, _data, { words }) => page.getByRole("button", { name: words.authoring.editor.preview }).click(),
      ready: (page) => page.getByRole("note"),
    },
  ],
});
