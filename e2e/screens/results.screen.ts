import { startThroughApi } from "../proctor/dashboard-page";
import { expect } from "../fixtures";
import { defineScreen } from "./registry";

/** An exam's results page with scored papers, figures and charts; and the release dialog. */
export default defineScreen({
  name: "results",
  roles: ["admin"],
  timeoutMs: 240_000,
  setup: async ({ createExam, enrollCandidate, server, pick }) => {
    const exam = await createExam({ title: pick("Networking 101 — final exam", "网络基础 — 期末考试") });
    // Five papers with a spread of totals; the essays wait for a grader; one candidate never starts.
    const papers: { name: string; values: unknown[] }[] = [
      { name: "王伟", values: ["b", ["a", "b"], "ARP", "A handshake agrees on sequence numbers.", 6] },
      { name: "Grace Hopper", values: ["b", ["a"], "arp", "", 6] },
      { name: "Alan Turing", values: ["a", ["a", "b"], "RARP", "", 8] },
      { name: "李娜", values: ["b", ["c"], "", "", 6] },
      { name: "Ada Lovelace", values: ["c", [], "", "", 2] },
    ];
    for (const paper of papers) {
      const candidate = await enrollCandidate(exam.id, { name: paper.name });
      const { attemptId, request } = await startThroughApi(server.baseURL, exam.id, candidate);
      const submitted = await request.post(`/api/attempts/${attemptId}/submit`, {
        data: {
          deviceId: "laptop",
          answers: paper.values.flatMap((value, index) =>
            value === "" || (Array.isArray(value) && value.length === 0)
              ? []
              : [{ questionId: exam.questionIds[index]!, value, version: 1 }],
          ),
        },
        headers: { "Idempotency-Key": `screen-results-${attemptId}` },
      });
      expect(submitted.status(), await submitted.text()).toBe(200);
      await request.dispose();
    }
    await enrollCandidate(exam.id, { name: "Linus Torvalds" });
    return { exam };
  },
  url: ({ exam }) => `/admin/exams/${exam.id}/results`,
  ready: async (page) => {
    await expect(page.getByTestId("exam-figures")).toContainText(/5 (of|\/) 5/, { timeout: 20_000 });
    await expect(page.locator("canvas").first()).toBeVisible();
  },
  states: [
    {
      name: "release-dialog",
      act: (page, _data, { words }) =>
        page.getByRole("button", { name: words.statistics.release.release, exact: true }).click(),
      ready: (page, _data, { words }) =>
        page.getByRole("dialog", { name: words.statistics.release.releaseConfirmTitle }),
      capture: "viewport",
    },
  ],
});
