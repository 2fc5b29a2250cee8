import { expectSaved, question } from "../exam/exam-page";
import { expect } from "../fixtures";
import { expectExamReady, startAttempt } from "./candidate-steps";
import { defineScreen } from "./registry";

/**
 * The end of a sitting: the ten-minute warning, an answer that has not reached the server near the deadline, the
 * leave dialog that says so, and the time up with an answer still on the device (the emergency file offered).
 * The deadline is moved in PostgreSQL, as time passing would move it.
 */
export default defineScreen({
  name: "exam-deadline",
  timeoutMs: 240_000,
  setup: async ({ createExam, enrollCandidate, joinAs, context, sql, pick }) => {
    const exam = await createExam({ title: pick("Networking 101 — quiz", "网络基础 — 小测验") });
    await joinAs(await enrollCandidate(exam.id, { name: pick("Ada Lovelace", "王小明") }));
    const attemptId = await startAttempt(context, exam.id);
    // An hour-long attempt with five minutes left.
    await sql.query(
      "UPDATE attempts SET started_at = now() - interval '55 minutes', deadline = now() + interval '5 minutes' WHERE id = $1",
      [attemptId],
    );
    return { attemptId };
  },
  url: ({ attemptId }) => `/attempts/${attemptId}`,
  ready: async (page, _data, { words }) => {
    await expectExamReady(page, words);
    await question(page, 3, words).getByLabel(words.exam.answer.label).fill("ARP");
    await expectSaved(page, [3], words);
  },
  capture: "viewport",
  states: [
    {
      name: "unsent",
      act: async (page, _data, { context, words, pick }) => {
        await context.setOffline(true);
        const essay = question(page, 4, words);
        await essay
          .getByLabel(words.exam.answer.label)
          .fill(pick("Written with no connection, near the end.", "离线时写下的答案，临近结束。"));
        await essay.scrollIntoViewIfNeeded();
      },
      ready: (page, _data, { words }) => page.getByText(words.exam.bar.offline, { exact: true }).first(),
      capture: "viewport",
    },
    {
      name: "leave-unsent",
      act: (page, _data, { words }) => page.getByRole("button", { name: words.exam.leave.start }).click(),
      ready: (page, _data, { words }) => page.getByRole("button", { name: words.exam.leave.stay }),
      capture: "viewport",
    },
    {
      name: "time-up-unsent",
      act: async (page, { attemptId }, { context, sql, words }) => {
        await page.getByRole("button", { name: words.exam.leave.stay }).click();
        await context.setOffline(false);
        await expectSaved(page, [4], words);
        // Twenty seconds left, then offline until the time is up.
        await sql.query("UPDATE attempts SET deadline = now() + interval '20 seconds' WHERE id = $1", [attemptId]);
        await page.reload();
        await expectExamReady(page, words);
        await context.setOffline(true);
        await question(page, 5, words).getByLabel(words.exam.answer.label).fill("6");
        await expect(page.getByText(words.exam.countdown.over).first()).toBeVisible({ timeout: 30_000 });
        await page.evaluate(() => window.scrollTo(0, 0));
      },
      ready: (page, _data, { words }) => page.getByRole("button", { name: words.exam.emergency.download }),
    },
  ],
});
