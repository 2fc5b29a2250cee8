import { expect, test } from "../fixtures";
import { essayExamWithPapers, RUBRIC } from "./grading-data";

// Grading by people (issue 15): an admin grades a question's essays with the keyboard only, blind (a candidate
// code, never the name, before the results are released); two graders on one answer at once never overwrite
// each other silently. Both languages.

const WORDS = {
  "en-US": {
    grade: "Grade question 1",
    points: /^Points \(0 to 5\)$/,
    noneWaiting: "2 of 2 marked, 0 waiting",
    twoWaiting: "0 of 2 marked, 2 waiting",
    saved: /^Saved: 4 points for [0-9A-Z]{4}-[0-9A-Z]{4}\.$/,
    allDone: /Nothing else waits on this question\.$/,
    conflict: "Someone else marked this answer meanwhile",
    keepTheirs: "Keep theirs",
    replace: "Replace with mine",
    marked: "marked",
    waiting: "waiting",
    savedPoints: (points: string) => `Saved: ${points} points for`,
  },
  "zh-CN": {
    grade: "为第 1 题评分",
    points: /^得分（0 至 5）$/,
    noneWaiting: "已评 2 / 2，0 份待评",
    twoWaiting: "已评 0 / 2，2 份待评",
    saved: /^已保存：[0-9A-Z]{4}-[0-9A-Z]{4} 得 4 分。$/,
    allDone: /这道题已没有待评的答卷。$/,
    conflict: "这份作答刚被其他评分人评过",
    keepTheirs: "保留对方的评分",
    replace: "改用我的评分",
    marked: "已评",
    waiting: "待评",
    savedPoints: (points: string) => `得 ${points} 分`,
  },
} as const;

const HOSTILE = "<img src=x onerror=\"document.title='pwned'\"><b>bold claim</b>";

for (const locale of ["en-US", "zh-CN"] as const) {
  const words = WORDS[locale];

  test.describe(`grading, ${locale}`, () => {
    test.use({ locale });

    test("an admin grades both essays with the keyboard only, and never sees a name before release", async ({
      page,
      server,
      sql,
      createExam,
      enrollCandidate,
      createStaff,
      signIn,
    }) => {
      const names = [`Ada Lovelace ${locale}`, `Grace Hopper ${locale}`];
      const { exam } = await essayExamWithPapers({
        baseURL: server.baseURL,
        sql,
        createExam,
        locale,
        title: `Grading ${locale}`,
        enroll: async (examId) => [
          await enrollCandidate(examId, { name: names[0] }),
          await enrollCandidate(examId, { name: names[1] }),
        ],
        essays: ["The handshake agrees both initial sequence numbers before data flows.", HOSTILE],
      });
      const admin = await createStaff("admin");
      await signIn(page.context(), admin);

      await page.goto(`/admin/exams/${exam.id}/grading`);
      const essayRow = page.getByRole("row").filter({ hasText: words.twoWaiting });
      await expect(essayRow).toBeVisible();
      for (const name of names) await expect(page.locator("body")).not.toContainText(name);

      await essayRow.getByRole("link", { name: words.grade }).click();
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.getByText(RUBRIC[locale])).toBeVisible();
      const points = page.getByLabel(words.points);
      await expect(points).toBeVisible();
      for (const name of names) await expect(page.locator("body")).not.toContainText(name);
      // J / K and Alt+Arrow step through the papers (from the paper list here: not a text field).
      const answerHeading = page.locator("#grading-answer");
      const opened = await answerHeading.textContent();
      const papers = page.getByRole("navigation", { name: /Papers|答卷/ }).getByRole("button");
      await expect(papers).toHaveCount(2);
      await papers.first().focus();
      await page.keyboard.press("k");
      await expect(answerHeading).not.toHaveText(opened!);
      await page.keyboard.press("j");
      await expect(answerHeading).toHaveText(opened!);
      await page.keyboard.press("Alt+ArrowDown");
      await expect(answerHeading).not.toHaveText(opened!);
      await page.keyboard.press("Alt+ArrowUp");
      await expect(answerHeading).toHaveText(opened!);

      // Paper 1: a number key (focus not in a text field) sets the points, Enter saves and moves on.
      await page.locator("h1").click();
      await page.keyboard.press("4");
      await expect(points).toBeFocused();
      await expect(points).toHaveValue("4");
      await page.keyboard.press("Enter");
      await expect(page.getByRole("status").filter({ hasText: words.saved })).toBeAttached();
      await expect(papers.filter({ hasText: words.marked })).toHaveCount(1);

      // Paper 2: a comment first, then out of the text fields (Shift+Tab twice) and the points by number key.
      await expect(points).toHaveValue("");
      await page.keyboard.press("Tab");
      await page.keyboard.type(locale === "zh-CN" ? "请说明原因。" : "Say why.");
      await page.keyboard.press("Shift+Tab");
      await page.keyboard.press("Shift+Tab"); // out of the points field, onto the link before the form
      await page.keyboard.press("2");
      await expect(points).toBeFocused();
      await expect(points).toHaveValue("2");
      await page.keyboard.press("Enter");
      await expect(page.getByRole("status").filter({ hasText: words.allDone })).toBeAttached();
      await expect(papers.filter({ hasText: words.marked })).toHaveCount(2);
      // The answers are text: the hostile one shows its markup and runs nothing (whichever paper it is: J to it).
      for (let step = 0; step < 2 && !(await page.getByText(HOSTILE).isVisible()); step += 1) {
        await page.locator("h1").click();
        await page.keyboard.press("j");
      }
      await expect(page.getByText(HOSTILE)).toBeVisible();
      expect(await page.title()).not.toBe("pwned");
      await expect(page.locator("img[src=x]")).toHaveCount(0);
      for (const name of names) await expect(page.locator("body")).not.toContainText(name);

      await page.goto(`/admin/exams/${exam.id}/grading`);
      await expect(page.getByRole("row").filter({ hasText: words.noneWaiting })).toBeVisible();
      for (const name of names) await expect(page.locator("body")).not.toContainText(name);
    });

    test("two graders on the same answer at once: the later one sees the other's mark and chooses", async ({
      browser,
      server,
      sql,
      createExam,
      enrollCandidate,
      createStaff,
      signIn,
    }) => {
      const { exam, essayId } = await essayExamWithPapers({
        baseURL: server.baseURL,
        sql,
        createExam,
        locale,
        title: `Grading conflict ${locale}`,
        enroll: async (examId) => [await enrollCandidate(examId)],
        essays: ["A handshake makes both sides agree on where the byte stream starts."],
      });
      const [first, second] = [await createStaff("admin"), await createStaff("admin")];
      const contexts = [await browser.newContext({ locale }), await browser.newContext({ locale })];
      try {
        await signIn(contexts[0]!, first);
        await signIn(contexts[1]!, second);
        const [pageA, pageB] = [await contexts[0]!.newPage(), await contexts[1]!.newPage()];
        for (const page of [pageA, pageB]) {
          await page.goto(`/admin/exams/${exam.id}/grading/${essayId}?marker=first`);
          await expect(page.getByLabel(words.points)).toBeVisible();
        }

        await pageA.getByLabel(words.points).fill("3");
        await pageA.getByLabel(/Comment|评语/).fill("Clear, but no why.");
        await pageA.getByLabel(words.points).press("Enter");
        await expect(pageA.getByRole("status").filter({ hasText: words.savedPoints("3") })).toBeAttached();

        // B loaded the paper before A saved: their save is refused and A's mark shown, nothing overwritten.
        await pageB.getByLabel(words.points).fill("5");
        await pageB.getByLabel(words.points).press("Enter");
        const panel = pageB.getByRole("region", { name: words.conflict });
        await expect(panel).toBeVisible();
        await expect(panel).toContainText(first.name);
        await expect(panel).toContainText("3");
        await expect(panel).toContainText("Clear, but no why.");
        await expect(pageB.getByRole("heading", { name: words.conflict })).toBeFocused();
        const stored = await sql.query("SELECT units::text AS units, revision FROM grades WHERE question_id = $1", [
          essayId,
        ]);
        expect(stored.rows).toEqual([{ units: "30000", revision: 1 }]);

        // Keep theirs: the form now holds A's mark.
        await panel.getByRole("button", { name: words.keepTheirs }).click();
        await expect(panel).toBeHidden();
        await expect(pageB.getByLabel(words.points)).toHaveValue("3");

        // A second race, and this time B replaces A's mark on purpose, on A's revision.
        await pageA.getByLabel(words.points).fill("2");
        await pageA.getByLabel(words.points).press("Enter");
        await expect(pageA.getByRole("status").filter({ hasText: words.savedPoints("2") })).toBeAttached();
        await pageB.getByLabel(words.points).fill("4.5");
        await pageB.getByLabel(words.points).press("Enter");
        await expect(panel).toBeVisible();
        await panel.getByRole("button", { name: words.replace }).click();
        await expect(panel).toBeHidden();
        await expect
          .poll(
            async () =>
              (await sql.query("SELECT units::text AS units FROM grades WHERE question_id = $1", [essayId])).rows,
          )
          .toEqual([{ units: "45000" }]);
      } finally {
        for (const context of contexts) await context.close();
      }
    });
  });
}
