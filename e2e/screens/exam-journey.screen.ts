import { expectSaved, question } from "../exam/exam-page";
import { expect } from "../fixtures";
import { expectExamReady, startAttempt } from "./candidate-steps";
import { defineScreen } from "./registry";

/**
 * A candidate's sitting from the answered paper to the frozen one: every answer saved (one flagged), a number the
 * field refuses, the submit whose answer was lost (the page reloaded while it is sent again), the receipt, the
 * submitted paper, and the join link opened again afterwards.
 */
export default defineScreen({
  name: "exam-journey",
  // A dozen states, each checked and photographed twice, with a submit that waits for its retry.
  timeoutMs: 300_000,
  setup: async ({ createExam, enrollCandidate, joinAs, context, pick }) => {
    const hour = 3600 * 1000;
    const exam = await createExam({
      title: pick("Networking 101 — final exam", "网络基础 — 期末考试"),
      opensAt: new Date(Date.now() - hour).toISOString(),
      closesAt: new Date(Date.now() + 6 * hour).toISOString(),
    });
    const candidate = await enrollCandidate(exam.id, { name: pick("Ada Lovelace", "王小明"), extraSeconds: 900 });
    await joinAs(candidate);
    return { candidate, attemptId: await startAttempt(context, exam.id) };
  },
  url: ({ attemptId }) => `/attempts/${attemptId}`,
  ready: async (page, _data, { words }) => {
    await expectExamReady(page, words);
    await question(page, 1, words).getByRole("radio", { name: "Network" }).check();
    await question(page, 3, words).getByLabel(words.exam.answer.label).fill("ARP");
    await question(page, 4, words)
      .getByLabel(words.exam.answer.label)
      .fill("Both sides must learn the other's initial sequence number.");
    await question(page, 5, words).getByLabel(words.exam.answer.label).fill("20,5");
    await question(page, 2, words).getByRole("button", { name: words.exam.question.flag }).click();
    await expectSaved(page, [1, 3, 4, 5], words);
    await page.evaluate(() => window.scrollTo(0, 0));
  },
  states: [
    {
      name: "numeric-refused",
      act: async (page, _data, { words }) => {
        const field = question(page, 5, words).getByLabel(words.exam.answer.label);
        await field.fill("1,234");
        await field.scrollIntoViewIfNeeded();
      },
      ready: async (page, _data, { words }) => {
        await expect(question(page, 5, words).getByLabel(words.exam.answer.label)).toHaveAttribute(
          "aria-invalid",
          "true",
        );
      },
      capture: "viewport",
    },
    {
      name: "submitting",
      act: async (page, { attemptId }, { words }) => {
        await question(page, 5, words).getByLabel(words.exam.answer.label).fill("6");
        await expectSaved(page, [5], words);
        await page.getByRole("button", { name: words.exam.reviewAndSubmit }).first().click();
        const review = page.getByRole("dialog", { name: words.exam.review.title });
        // The submit's answer is lost on the way back: the page keeps the submission and sends it again.
        await page.route(`**/api/attempts/${attemptId}/submit`, (route) => route.abort("connectionreset"));
        await review.getByRole("button", { name: words.exam.review.submit }).click();
        await expect(review.getByRole("button", { name: words.exam.review.submitting })).toBeDisabled();
        await page.reload();
        await page.evaluate(() => window.scrollTo(0, 0));
      },
      ready: (page, _data, { words }) => page.getByRole("heading", { name: words.exam.submitting }),
    },
    {
      name: "submitted",
      act: (page, { attemptId }) => page.unroute(`**/api/attempts/${attemptId}/submit`),
      ready: async (page, _data, { words }) => {
        await expect(page.getByRole("heading", { name: words.exam.final.title })).toBeVisible({ timeout: 60_000 });
      },
    },
    {
      name: "paper",
      act: async (page, { attemptId }, { words }) => {
        await page.getByRole("link", { name: words.exam.final.viewPaper }).click();
        await expect(page).toHaveURL(`/attempts/${attemptId}/paper`);
      },
      ready: (page, _data, { words }) => page.getByRole("heading", { name: words.exam.paper.answersTitle }),
    },
    {
      name: "start-again",
      act: async (page, { candidate }) => {
        await page.goto(candidate.joinUrl);
      },
      ready: (page, _data, { words }) => page.getByRole("link", { name: words.candidate.start.viewPaper }),
    },
  ],
});
