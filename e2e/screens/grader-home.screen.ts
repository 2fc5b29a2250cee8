import { expect } from "../fixtures";
import { defineScreen } from "./registry";

/** A grader's home: only the exams they mark, and no proctoring in their header. */
export default defineScreen({
  name: "grader-home",
  roles: ["grader"],
  setup: async ({ createExam, adminApi, staff, pick }) => {
    const exam = await createExam({ title: pick("Networking 101 — final exam", "网络基础 — 期末考试") });
    const assigned = await adminApi.put(`/api/admin/exams/${exam.id}/graders/${staff!.id}`);
    expect(assigned.status(), await assigned.text()).toBe(204);
    return { exam };
  },
  url: () => "/grading",
  ready: async (page, { exam }, { words }) => {
    await expect(page.locator(`a[href="/admin/exams/${exam.id}/grading"]`)).toBeVisible();
    await expect(page.getByRole("link", { name: words.common.navProctoring })).toHaveCount(0);
  },
});
