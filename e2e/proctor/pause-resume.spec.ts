import type { Page } from "@playwright/test";
import type pg from "pg";

import { expect, test } from "../fixtures";

// Issue 14, "Pause and resume" (ADR 016), as the people in the room live it: a proctor pauses the exam from the
// dashboard for ~30 s (a fire alarm), the candidate's open page says so with the reason, freezes its clock and
// locks editing; the proctor resumes and the candidate's deadline has moved by exactly the paused time.

const WORDS = {
  "en-US": {
    start: /^(Start|Resume)$/,
    question3: /^Question 3\b/,
    answer: "Your answer",
    timeLeft: "Time left",
    submit: "Review and submit",
    pauseExam: "Pause exam",
    resumeExam: "Resume exam",
    reason: "Reason (shown to candidates)",
    pause: "Pause",
    resume: "Resume",
    close: "Close",
    banner: (reason: string) => `Paused by the invigilator: ${reason}`,
    resumed: "The invigilator resumed the exam",
    examPaused: "Exam paused since",
    deadline: "Deadline: ",
    deadlinePaused: "Deadline: moved on by the length of the pause; the new time shows here when the exam resumes.",
    timeUp: "Time is up: answers can no longer be changed or submitted on this page.",
  },
  "zh-CN": {
    start: /^(开始|继续)$/,
    question3: /^第 ?3 ?题/,
    answer: "您的作答",
    timeLeft: "剩余时间",
    submit: "检查并交卷",
    pauseExam: "暂停考试",
    resumeExam: "恢复考试",
    reason: "原因（考生可见）",
    pause: "暂停",
    resume: "恢复",
    close: "关闭",
    banner: (reason: string) => `监考员已暂停考试：${reason}`,
    resumed: "监考员已恢复考试",
    examPaused: "考试自",
    deadline: "截止时间：",
    deadlinePaused: "截止时间：暂停多久就顺延多久，考试恢复后这里会显示新的截止时间。",
    timeUp: "时间到：本页已不能再修改或提交作答。",
  },
} as const;

/** "1:02:05" or "59:30" → seconds. */
function seconds(clock: string): number {
  return clock
    .trim()
    .split(":")
    .reduce((total, part) => total * 60 + Number(part), 0);
}

for (const locale of ["en-US", "zh-CN"] as const) {
  const words = WORDS[locale];

  test.describe(`Pause and resume, ${locale}`, () => {
    test.use({ locale });

    test("the proctor pauses for 30 s: the page shows it and locks editing; resume moves the deadline by the paused time; then the time runs out", async ({
      page,
      browser,
      sql,
      createExam,
      enrollCandidate,
      createStaff,
      assignProctor,
      signIn,
    }) => {
      test.slow();
      const exam = await createExam({ durationSeconds: 1800 });
      const candidate = await enrollCandidate(exam.id);
      const proctor = await createStaff("proctor");
      await assignProctor(exam.id, proctor);

      // The candidate's page (its labels are in the candidate's language too).
      const answerField = (on: Page) => on.getByRole("article", { name: words.question3 }).getByLabel(words.answer);
      await page.goto(candidate.joinUrl);
      await page.getByRole("button", { name: words.start }).click();
      await expect(answerField(page)).toBeEditable();
      const attemptId = new URL(page.url()).pathname.split("/").pop()!;
      await answerField(page).fill("typed before the alarm");
      const deadlineBefore = await attemptDeadline(page, attemptId);

      const proctorContext = await browser.newContext({ locale });
      try {
        await signIn(proctorContext, proctor);
        const dashboard = await proctorContext.newPage();
        await dashboard.goto(`/proctor/exams/${exam.id}`);
        await expect(dashboard.getByRole("button", { name: words.pauseExam })).toBeVisible();
        await dashboard.getByRole("button", { name: words.pauseExam }).click();
        const dialog = dashboard.getByRole("dialog");
        await dialog.getByLabel(words.reason).fill("Fire alarm, please stay seated");
        await dialog.getByRole("button", { name: words.pause, exact: true }).click();
        await dialog.getByRole("button", { name: words.close }).click();
        await expect(dashboard.getByText(words.examPaused)).toBeVisible();

        // The candidate's page, within a few seconds (the presence stream).
        await expect(page.getByRole("heading", { name: words.banner("Fire alarm, please stay seated") })).toBeVisible({
          timeout: 5_000,
        });
        await expect(answerField(page)).not.toBeEditable();
        await expect(page.getByRole("button", { name: words.submit }).first()).toBeDisabled();
        // The deadline below the bar is not the one from before the pause (it moves on while paused).
        await expect(page.getByText(words.deadlinePaused)).toBeVisible();
        await expect(page.getByText(new RegExp(`^${words.deadline}.*\\d:\\d\\d`))).toHaveCount(0);
        // The edit made before the pause reached the server, while paused.
        await expect
          .poll(() => serverValue(page, attemptId, exam.questionIds[2]!), { timeout: 10_000 })
          .toBe("typed before the alarm");
        const frozen = await timeLeft(page, words.timeLeft);
        await page.waitForTimeout(5_000);
        expect(await timeLeft(page, words.timeLeft)).toBe(frozen);
        // A reload shows the same pause, from the attempt view.
        await page.reload();
        await expect(page.getByRole("heading", { name: words.banner("Fire alarm, please stay seated") })).toBeVisible();
        await expect(answerField(page)).not.toBeEditable();

        // About 30 s of pause in all, then the proctor resumes.
        const pausedAt = await pauseInstant(sql, exam.id, "pause");
        const waitMs = 30_000 - (Date.now() - Date.parse(pausedAt.toISOString()));
        if (waitMs > 0) await page.waitForTimeout(waitMs);
        await dashboard.getByRole("button", { name: words.resumeExam }).click();
        await dashboard.getByRole("dialog").getByRole("button", { name: words.resume, exact: true }).click();
        await expect(dashboard.getByRole("dialog").getByRole("status")).toBeVisible();
      } finally {
        await proctorContext.close();
      }

      await expect(page.getByText(words.resumed)).toBeVisible({ timeout: 5_000 });
      await expect(answerField(page)).toBeEditable();
      await expect(page.getByRole("button", { name: words.submit }).first()).toBeEnabled();

      // The deadline moved by the paused time: about 30 s by the test's clock, exactly by the database's.
      const deadlineAfter = await attemptDeadline(page, attemptId);
      const pausedAt = await pauseInstant(sql, exam.id, "pause");
      const resumedAt = await pauseInstant(sql, exam.id, "resume");
      const pausedMs = resumedAt.getTime() - pausedAt.getTime();
      expect(Math.abs(pausedMs - 30_000)).toBeLessThanOrEqual(5_000);
      expect(deadlineAfter - deadlineBefore).toBe(pausedMs);
      // The countdown shows the moved deadline: time left now is what was left at the pause, less the time since.
      const sinceResume = (Date.now() - resumedAt.getTime()) / 1000;
      const expected = (deadlineBefore - pausedAt.getTime()) / 1000 - sinceResume;
      expect(Math.abs((await timeLeft(page, words.timeLeft)) - expected)).toBeLessThanOrEqual(2);
      await expect(page.getByText(words.deadlinePaused)).toHaveCount(0);
      await expect(page.getByText(new RegExp(`^${words.deadline}.*\\d:\\d\\d`))).toBeVisible();

      // The time runs out on the open page (its deadline moved to a few seconds from now; the next save's answer
      // brings it): pencils down. The resume is no longer said, the paper and the submit buttons are locked, and
      // the buttons say why. The grace (60 s) keeps the server's auto-submit away meanwhile.
      await sql.query("UPDATE attempts SET deadline = now() + interval '6 seconds' WHERE id = $1", [attemptId]);
      await answerField(page).fill("typed after the resume");
      const submitButton = page.getByRole("button", { name: words.submit }).first();
      await expect(submitButton).toBeDisabled({ timeout: 20_000 });
      await expect(page.getByText(words.resumed)).toHaveCount(0);
      await expect(answerField(page)).not.toBeEditable();
      await expect(submitButton).toHaveAccessibleDescription(new RegExp(`^${words.timeUp}`));
      await expect(page.getByText(words.timeUp)).toBeVisible();
    });
  });
}

async function attemptDeadline(page: Page, attemptId: string): Promise<number> {
  const response = await page.request.get(`/api/attempts/${attemptId}`);
  expect(response.status()).toBe(200);
  return Date.parse(((await response.json()) as { deadline: string }).deadline);
}

async function serverValue(page: Page, attemptId: string, questionId: string): Promise<unknown> {
  const response = await page.request.get(`/api/attempts/${attemptId}`);
  const view = (await response.json()) as { answers: { questionId: string; value: unknown }[] };
  return view.answers.find((answer) => answer.questionId === questionId)?.value ?? null;
}

async function timeLeft(page: Page, label: string): Promise<number> {
  return seconds((await page.getByRole("timer", { name: label }).textContent()) ?? "");
}

async function pauseInstant(sql: pg.Pool, examId: string, action: "pause" | "resume"): Promise<Date> {
  const { rows } = await sql.query<{ at: Date }>(
    "SELECT at FROM exam_pauses WHERE exam_id = $1 AND action = $2 ORDER BY at DESC LIMIT 1",
    [examId, action],
  );
  if (!rows[0]) throw new Error(`no ${action} of exam ${examId}`);
  return rows[0].at;
}
