import { startThroughApi } from "../proctor/dashboard-page";
import { expect } from "../fixtures";
import { defineScreen, fill } from "./registry";

/** An exam's late answers: one decided, one open; the reject dialog's inline error; the accept dialog. */
export default defineScreen({
  name: "late-answers",
  roles: ["admin"],
  setup: async ({ createExam, enrollCandidate, adminApi, server, pick }) => {
    const exam = await createExam({ title: pick("Networking 101 — final exam", "网络基础 — 期末考试") });
    const [single, multiple, short] = exam.questionIds as [string, string, string];
    const grace = await enrollCandidate(exam.id, { name: "Grace Hopper" });
    const api = await startThroughApi(server.baseURL, exam.id, grace);
    const save = (deviceId: string, version: number, values: [string, unknown][]) =>
      api.request.post(`/api/attempts/${api.attemptId}/answers`, {
        data: { deviceId, answers: values.map(([questionId, value]) => ({ questionId, value, version })) },
      });
    expect(
      (
        await save("laptop-5d2c8e9a41f0", 1, [
          [single, "a"],
          [short, "RARP"],
        ])
      ).status(),
    ).toBe(200);
    expect((await adminApi.post(`/api/proctor/attempts/${api.attemptId}/force-submit`)).status()).toBe(200);
    const late = await save("phone-8b17e2c4d9aa", 2, [
      [single, "b"],
      [multiple, ["a", "b"]],
      [short, "ARP (Address Resolution Protocol), which maps IPv4 addresses to MAC addresses"],
    ]);
    expect(late.status(), await late.text()).toBe(409);
    await api.request.dispose();
    const list = await adminApi.get(`/api/admin/exams/${exam.id}/late-answers`);
    const rows = ((await list.json()) as { lateAnswers: { id: string; position: number }[] }).lateAnswers;
    const decided = await adminApi.post(
      `/api/admin/exams/${exam.id}/late-answers/${rows.find((row) => row.position === 1)!.id}/decision`,
      { data: { decision: "accepted", reason: "the phone lost its connection before the deadline" } },
    );
    expect(decided.status(), await decided.text()).toBe(201);
    return { exam };
  },
  url: ({ exam }) => `/admin/exams/${exam.id}/late-answers`,
  ready: (page) => page.getByRole("region", { name: "Grace Hopper" }),
  states: [
    {
      name: "reject-dialog-error",
      act: async (page, _data, { words }) => {
        await page
          .getByRole("button", { name: fill(words.lateAnswers.rejectLabel, { position: 2, name: "Grace Hopper" }) })
          .click();
        await page.getByRole("dialog").getByRole("button", { name: words.lateAnswers.dialog.confirmReject }).click();
      },
      ready: async (page, _data, { words }) => {
        await expect(page.getByRole("dialog").getByLabel(words.lateAnswers.dialog.reasonRequired)).toHaveAttribute(
          "aria-invalid",
          "true",
        );
      },
      capture: "viewport",
    },
    {
      name: "accept-dialog",
      act: async (page, _data, { words }) => {
        await page.getByRole("dialog").getByRole("button", { name: words.lateAnswers.dialog.cancel }).click();
        await expect(page.getByRole("dialog")).toHaveCount(0);
        await page
          .getByRole("button", { name: fill(words.lateAnswers.acceptLabel, { position: 2, name: "Grace Hopper" }) })
          .click();
      },
      ready: (page, _data, { words }) =>
        page.getByRole("dialog").getByRole("button", { name: words.lateAnswers.dialog.confirmAccept }),
      capture: "viewport",
    },
  ],
});
