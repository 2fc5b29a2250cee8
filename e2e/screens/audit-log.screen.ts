import { expect } from "../fixtures";
import { defineScreen } from "./registry";

/** The audit log of an exam: all its entries, one kind only, a filter that matches nothing, invalid filters. */
export default defineScreen({
  name: "audit-log",
  roles: ["admin"],
  setup: async ({ createExam, enrollCandidate, createStaff, adminApi, pick }) => {
    const exam = await createExam({ title: pick("Networking 101 — final exam", "网络基础 — 期末考试") });
    const first = await enrollCandidate(exam.id, { name: pick("Ada Lovelace", "王伟"), extraSeconds: 900 });
    const second = await enrollCandidate(exam.id, { name: pick("Grace Hopper", "李娜") });
    const proctor = await createStaff("proctor");
    const base = `/api/admin/exams/${exam.id}`;
    for (const response of [
      await adminApi.post(`${base}/candidates/${second.id}/join-link`, { data: { action: "revoke" } }),
      await adminApi.patch(`${base}/candidates/${first.id}`, { data: { extraSeconds: 300 } }),
      await adminApi.put(`${base}/proctors/${proctor.id}`),
      await adminApi.patch(base, { data: { revision: 1, status: "closed" } }),
    ]) {
      expect(response.ok(), await response.text()).toBe(true);
    }
    return { exam };
  },
  url: ({ exam }) => `/admin/audit?examId=${exam.id}`,
  ready: (page) => page.getByRole("rowheader").first(),
  states: [
    {
      name: "filtered",
      act: async (page, { exam }) => {
        await page.goto(`/admin/audit?examId=${exam.id}&action=enrollment.join_link_revoked`);
      },
      ready: async (page) => {
        await expect(page.getByRole("rowheader")).toHaveCount(1);
      },
    },
    {
      name: "nothing-matches",
      act: async (page, { exam }) => {
        await page.goto(`/admin/audit?examId=${exam.id}&action=staff.disabled`);
      },
      ready: async (page) => {
        await expect(page.getByRole("rowheader")).toHaveCount(0);
      },
    },
    {
      name: "invalid-filters",
      act: async (page) => {
        await page.goto("/admin/audit?from=2026-12-02&to=2026-12-01");
      },
      ready: (page) => page.getByRole("alert").filter({ hasText: /\S/ }),
    },
  ],
});
