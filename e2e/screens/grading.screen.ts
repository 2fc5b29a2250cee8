import { essayExamWithPapers } from "../admin/grading-data";
import { expect } from "../fixtures";
import { defineScreen } from "./registry";

/**
 * Grading by people: the overview, a question's queue with an answer, the conflict panel after someone else
 * marked it, the inline error, then (double marking) the overview, the disagreements and settling one.
 */
export default defineScreen({
  name: "grading",
  roles: ["admin"],
  timeoutMs: 240_000,
  setup: async ({ createExam, enrollCandidate, server, sql, language, pick }) => {
    const { exam, essayId, attemptIds } = await essayExamWithPapers({
      baseURL: server.baseURL,
      sql,
      createExam,
      locale: language === "zh-CN" ? "zh-CN" : "en-US",
      title: pick("Networking 101 — final exam", "网络基础 — 期末考试"),
      enroll: async (examId) => [
        await enrollCandidate(examId, { name: "王伟" }),
        await enrollCandidate(examId, { name: "Grace Hopper" }),
        await enrollCandidate(examId, { name: "Alan Turing" }),
      ],
      essays: pick(
        [
          "The handshake lets each side confirm the other's initial sequence number.\n\nWith only two steps, an old duplicate SYN could open a connection nobody asked for, and the server would hold resources for it.",
          "So both sides know the other can send and receive.",
          "",
        ],
        [
          "三次握手让双方各自确认对方的初始序号。\n\n如果只有两次握手，旧的重复连接请求可能被误认为新连接，服务器会白白分配资源。",
          "为了确认双方都能收发数据。",
          "",
        ],
      ),
    });
    return { exam, essayId, attemptIds };
  },
  url: ({ exam }) => `/admin/exams/${exam.id}/grading`,
  ready: (page) => page.getByRole("table"),
  states: [
    {
      name: "queue",
      act: async (page, { exam, essayId, attemptIds }, { pick }) => {
        await page.goto(`/admin/exams/${exam.id}/grading/${essayId}?marker=first&paper=${attemptIds[0]}`);
        await page.locator("#grading-comment").fill(pick("Right steps, and the why.", "过程正确，原因说得清楚。"));
      },
      ready: (page) => page.locator("#grading-points"),
    },
    {
      name: "conflict",
      act: async (page, { exam, essayId, attemptIds }, { adminApi, pick }) => {
        // Someone else marks the answer behind the page's back: the page's save meets the conflict.
        await expect(page.locator("nav button[aria-current=true]")).toBeVisible();
        const behind = await adminApi.put(`/api/admin/exams/${exam.id}/grading/${essayId}/${attemptIds[0]}`, {
          data: {
            marker: "first",
            points: 3.5,
            comment: pick("Misses the old duplicate SYN.", "没有说明旧连接的问题。"),
            revision: 0,
          },
        });
        expect(behind.status(), await behind.text()).toBe(200);
        await page.locator("#grading-points").fill("5");
        await page.locator("#grading-points").press("Enter");
      },
      ready: (page) => page.locator("#grading-conflict"),
    },
    {
      name: "inline-error",
      act: async (page, _data, { words }) => {
        await page.locator("#grading-points").fill("99");
        await page.getByRole("button", { name: words.grading.queue.save }).click();
      },
      ready: async (page) => {
        await expect(page.locator("#grading-points")).toHaveAttribute("aria-invalid", "true");
      },
    },
    {
      name: "overview-double",
      act: async (page, { exam, essayId, attemptIds }, { adminApi, sql, pick }) => {
        await sql.query("UPDATE exams SET second_marking = true WHERE id = $1", [exam.id]);
        for (const [attemptId, points] of [
          [attemptIds[0], 5],
          [attemptIds[1], 1],
        ] as const) {
          const response = await adminApi.put(`/api/admin/exams/${exam.id}/grading/${essayId}/${attemptId}`, {
            data: { marker: "second", points, comment: "", revision: 0 },
          });
          expect(response.status(), await response.text()).toBe(200);
        }
        const first = await adminApi.put(`/api/admin/exams/${exam.id}/grading/${essayId}/${attemptIds[1]}`, {
          data: { marker: "first", points: 2, comment: pick("Too short.", "太简略。"), revision: 0 },
        });
        expect(first.status(), await first.text()).toBe(200);
        await page.goto(`/admin/exams/${exam.id}/grading`);
      },
      ready: (page) => page.getByRole("table"),
    },
    {
      name: "disagreements",
      act: async (page, { exam }) => {
        await page.goto(`/admin/exams/${exam.id}/grading/disagreements`);
      },
      ready: async (page) => {
        // A header row and the two papers whose markers disagree.
        await expect(page.getByRole("table").getByRole("row")).toHaveCount(3);
      },
    },
    {
      name: "settle",
      act: (page) => page.getByRole("table").getByRole("link").first().click(),
      ready: (page) => page.locator("#grading-marks"),
    },
  ],
});
