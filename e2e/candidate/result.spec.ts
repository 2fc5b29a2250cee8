import type { Page } from "@playwright/test";

import { expect, OBJECTIVE_TYPES, sampleQuestions, test } from "../fixtures";

import { submitPaper } from "./result-helpers";

// The candidate's result page (issue 15): after submitting, the candidate can open "Your result" from the final
// screen. Before the admin releases the results it says so calmly and shows no number; after the release it
// shows the total and, when the exam shows them, each question's points; with resultsDetail "total" only the
// total. Both languages; the selectors are roles and test ids, the words are checked per language.

const WORDS = {
  "en-US": {
    seeResult: "See your result",
    total: "Total: 2 out of 4 points",
    question: (n: number) => `Question ${n}`,
    points: ["1 out of 1", "1 out of 2", "0 out of 1"],
    totalOnly: "This exam shows the total only",
  },
  "zh-CN": {
    seeResult: "查看成绩",
    total: "总分：2 分（满分 4 分）",
    question: (n: number) => `第 ${n} 题`,
    points: ["1 分（满分 1 分）", "1 分（满分 2 分）", "0 分（满分 1 分）"],
    totalOnly: "本场考试只公布总分",
  },
} as const;

/** Reloads until the released total shows (the results worker scores a submit within about a second). */
async function expectReleasedTotal(page: Page, total: string) {
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("result-total")).toContainText(total, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}

for (const locale of ["en-US", "zh-CN"] as const) {
  const words = WORDS[locale];

  test.describe(`The candidate's result, ${locale}`, () => {
    test.use({ locale });

    test("no number before release; total and points by question after; the total only when the exam says so", async ({
      page,
      adminApi,
      createExam,
      enrollCandidate,
    }) => {
      const exam = await createExam({ questions: sampleQuestions({ types: OBJECTIVE_TYPES }) });
      const candidate = await enrollCandidate(exam.id);
      await page.goto(candidate.joinUrl);
      await expect(page).toHaveURL(new RegExp(`/exam/${exam.id}$`));
      // Single: right (1 of 1). Multiple: one of two right choices, no wrong one (1 of 2). Numeric: wrong (0 of 1).
      const attemptId = await submitPaper(page.request, exam.id, exam.questionIds, ["b", ["a"], 7]);

      // The final screen links to the result page.
      await page.goto(`/attempts/${attemptId}`);
      await page.getByRole("link", { name: words.seeResult }).click();
      await expect(page).toHaveURL(`/attempts/${attemptId}/result`);
      await expect(page.getByRole("heading", { level: 1, name: exam.title })).toBeVisible();

      // Before release: a calm note, and no digit of the score anywhere in it or in the page's main content
      // outside the exam's own title.
      const pending = page.getByTestId("result-pending");
      await expect(pending).toBeVisible();
      await expect(pending).not.toContainText(/\d/);
      await expect(page.getByTestId("result-total")).toHaveCount(0);
      await expect(page.getByTestId("result-questions")).toHaveCount(0);
      const mainText = (await page.locator("main").innerText()).replace(exam.title, "");
      expect(mainText).not.toMatch(/\d/);
      // The API says the same.
      expect((await page.request.get(`/api/attempts/${attemptId}/result`)).status()).toBe(403);

      const released = await adminApi.post(`/api/admin/exams/${exam.id}/results/release`);
      expect(released.status(), await released.text()).toBe(200);
      await expectReleasedTotal(page, words.total);
      await expect(page.getByTestId("result-pending")).toHaveCount(0);
      const list = page.getByTestId("result-questions");
      await expect(list.getByRole("article")).toHaveCount(3);
      for (const [index, points] of words.points.entries()) {
        await expect(list.getByRole("article", { name: words.question(index + 1) })).toContainText(points);
      }

      // At phone width nothing overflows sideways.
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(list.getByRole("article")).toHaveCount(3);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await page.setViewportSize({ width: 1280, height: 800 });

      // The exam's page links here too.
      await page.goto(`/exam/${exam.id}`);
      await expect(page.getByRole("link", { name: words.seeResult })).toHaveAttribute(
        "href",
        `/attempts/${attemptId}/result`,
      );

      // Total only: the admin changes the exam's results detail; the list of questions goes.
      const current = (await (await adminApi.get(`/api/admin/exams/${exam.id}`)).json()) as { revision: number };
      const patched = await adminApi.patch(`/api/admin/exams/${exam.id}`, {
        data: { revision: current.revision, resultsDetail: "total" },
      });
      expect(patched.status(), await patched.text()).toBe(200);
      await page.goto(`/attempts/${attemptId}/result`);
      await expect(page.getByTestId("result-total")).toContainText(words.total);
      await expect(page.getByTestId("result-questions")).toHaveCount(0);
      await expect(page.getByText(words.totalOnly)).toBeVisible();
      const api = (await (await page.request.get(`/api/attempts/${attemptId}/result`)).json()) as {
        questions: unknown;
      };
      expect(api.questions).toBeNull();
    });
  });
}
