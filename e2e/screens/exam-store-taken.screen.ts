import { upgradeStoreAsNewerRelease } from "../exam/exam-page";
import { expect } from "../fixtures";
import { expectExamReady, startAttempt } from "./candidate-steps";
import { defineScreen } from "./registry";

/** The exam page whose device store a newer release has taken: the reload notice, the page stopped. */
export default defineScreen({
  name: "exam-store-taken",
  setup: async ({ createExam, enrollCandidate, joinAs, context }) => {
    const exam = await createExam();
    await joinAs(await enrollCandidate(exam.id));
    return { attemptId: await startAttempt(context, exam.id) };
  },
  url: ({ attemptId }) => `/attempts/${attemptId}`,
  ready: async (page, _data, { context, words }) => {
    await expectExamReady(page, words);
    const other = await context.newPage();
    await other.goto("/");
    await upgradeStoreAsNewerRelease(other);
    await other.close();
    await expect(page.getByRole("alert").filter({ hasText: words.exam.storeSuperseded })).toBeVisible();
    await expect(page.getByText(words.exam.bar.stopped, { exact: true }).first()).toBeVisible();
  },
});
