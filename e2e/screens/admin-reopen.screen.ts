import { startThroughApi } from "../proctor/dashboard-page";
import { expect } from "../fixtures";
import { defineScreen, fill } from "./registry";

/**
 * The candidates page with a submitted and a reopened candidate, the reopen dialog filled in, and the dialog's
 * inline error.
 */
export default defineScreen({
  name: "admin-reopen",
  roles: ["admin"],
  setup: async ({ createExam, enrollCandidate, adminApi, server, pick }) => {
    const exam = await createExam({ title: pick("Networking 101 — resit", "网络基础 — 补考") });
    const wang = await enrollCandidate(exam.id, { name: "王伟" });
    const grace = await enrollCandidate(exam.id, { name: "Grace Hopper" });
    await enrollCandidate(exam.id, { name: "Alan Turing" });
    for (const candidate of [wang, grace]) {
      const { attemptId, request } = await startThroughApi(server.baseURL, exam.id, candidate);
      await request.dispose();
      expect((await adminApi.post(`/api/proctor/attempts/${attemptId}/force-submit`)).status()).toBe(200);
      if (candidate === grace) {
        const response = await adminApi.post(`/api/admin/attempts/${attemptId}/reopen`, {
          data: { reason: "force-submitted by mistake", seconds: 900 },
        });
        expect(response.status(), await response.text()).toBe(200);
      }
    }
    return { exam, wang };
  },
  url: ({ exam }) => `/admin/exams/${exam.id}/candidates`,
  ready: (page) => page.getByRole("row").filter({ hasText: "Grace Hopper" }),
  states: [
    {
      name: "dialog-error",
      act: async (page, { wang }, { words }) => {
        await page.getByRole("button", { name: fill(words.enrollment.list.reopenFor, { name: wang.name }) }).click();
        await page
          .getByRole("dialog", { name: fill(words.enrollment.reopen.title, { name: wang.name }) })
          .getByRole("button", { name: words.enrollment.reopen.submit, exact: true })
          .click();
      },
      ready: async (page, _data, { words }) => {
        await expect(page.getByLabel(words.enrollment.reopen.reason)).toHaveAttribute("aria-invalid", "true");
      },
      capture: "viewport",
    },
    {
      name: "dialog",
      act: (page, _data, { words, pick }) =>
        page
          .getByLabel(words.enrollment.reopen.reason)
          .fill(pick("Force-submitted by mistake.", "监考员误点了强制提交。")),
      ready: (page, _data, { words }) => page.getByLabel(words.enrollment.reopen.reason),
      capture: "viewport",
    },
  ],
});
