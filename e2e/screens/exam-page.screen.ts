import { expectExamReady, startAttempt } from "./candidate-steps";
import { defineScreen } from "./registry";

/** The exam page online, offline with answers waiting (one a chosen option, with its clear button), and its review dialog. */
export default defineScreen({
  name: "exam-page",
  setup: async ({ createExam, enrollCandidate, joinAs, context, pick }) => {
    const exam = await createExam({ title: pick("Networking 101 — final exam", "网络基础 — 期末考试") });
    await joinAs(await enrollCandidate(exam.id, { name: pick("Ada Lovelace", "王伟") }));
    return { attemptId: await startAttempt(context, exam.id) };
  },
  url: ({ attemptId }) => `/attempts/${attemptId}`,
  ready: (page, _data, { words }) => expectExamReady(page, words),
  states: [
    {
      name: "offline",
      act: async (page, _data, { context, words, pick }) => {
        // A chosen option, so the question shows "Clear my answer" too.
        await page.getByRole("radio").first().check();
        await context.setOffline(true);
        await page
          .getByRole("textbox", { name: words.exam.answer.label })
          .first()
          .fill(pick("typed while offline", "离线时输入的答案"));
      },
      ready: (page, _data, { words }) => page.getByText(words.exam.bar.offline, { exact: true }).first(),
    },
    {
      name: "review",
      act: async (page, _data, { context, words }) => {
        await context.setOffline(false);
        // The bar's button (the same one waits at the end of the paper).
        await page.getByRole("button", { name: words.exam.reviewAndSubmit }).first().click();
      },
      ready: (page, _data, { words }) => page.getByRole("dialog", { name: words.exam.review.title }),
      capture: "viewport",
    },
  ],
});
