import { join } from "node:path";
import { fileURLToPath } from "node:url";

import type { Page } from "@playwright/test";

import { expect, test } from "../fixtures";

import { ATTEMPT_URL, upgradeStoreAsNewerRelease } from "./exam-page";

// Not a check of behaviour: pictures of every page and state a candidate sees — start page, device check, exam
// online and offline, the review dialog, submitting, the receipt, the frozen paper, the deadline with answers
// not sent, the join-link problems — in English and in Chinese, at desktop and phone width, for a person to look
// at (e2e/.artifacts/screenshots/, not committed). The other specs assert what the pages do.

const SCREENSHOTS = fileURLToPath(new URL("../.artifacts/screenshots/", import.meta.url));

const VIEWPORTS = [
  { name: "desktop", use: { viewport: { width: 1280, height: 800 } } },
  {
    name: "phone",
    use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  },
] as const;

/** The words the steps below click or wait for, in each language. */
const LANGUAGES = [
  {
    name: "en",
    locale: "en-US",
    start: "Start",
    checkDevice: "Check this device",
    checks: "Checks",
    checking: "Checking…",
    answer: "Your answer",
    question: (position: number) => `Question ${position}`,
    saved: "Saved to server",
    flag: "Flag for review",
    offline: "You are offline.",
    review: "Review and submit",
    submit: "Submit now",
    submitting: "Submitting…",
    submitted: "Your answers were submitted",
    viewPaper: "View your submitted paper",
    timeUp: "Time is up.",
    emergency: "Download emergency file",
    leave: "Leave this device…",
    stay: "Stay",
    updated: "Holdfast was updated in another tab or window",
  },
  {
    name: "zh",
    locale: "zh-CN",
    start: "开始",
    checkDevice: "检查此设备",
    checks: "检查项目",
    checking: "检查中…",
    answer: "您的作答",
    question: (position: number) => `第 ${position} 题`,
    saved: "已保存到服务器",
    flag: "标记以便复查",
    offline: "您已离线。",
    review: "检查并交卷",
    submit: "立即交卷",
    submitting: "正在交卷…",
    submitted: "您的作答已提交",
    viewPaper: "查看已提交的答卷",
    timeUp: "时间到。",
    emergency: "下载应急文件",
    leave: "退出本设备…",
    stay: "留下",
    updated: "Holdfast 已在另一个标签页或窗口中更新",
  },
] as const;

for (const viewport of VIEWPORTS) {
  for (const words of LANGUAGES) {
    test.describe(`Candidate screenshots at ${viewport.name} width in ${words.name}`, () => {
      test.use({ ...viewport.use, locale: words.locale });

      const capture = (page: Page, name: string, fullPage = true) =>
        page.screenshot({ path: join(SCREENSHOTS, `${viewport.name}-${words.name}-candidate-${name}.png`), fullPage });
      const question = (page: Page, position: number) =>
        page.getByRole("article", { name: words.question(position), exact: true });
      const expectSaved = async (page: Page, positions: number[]) => {
        for (const position of positions) {
          await expect(question(page, position).getByText(words.saved, { exact: true })).toBeVisible();
        }
      };
      const openExam = async (page: Page, joinUrl: string) => {
        await page.goto(joinUrl);
        await page.getByRole("button", { name: words.start }).click();
        await expect(page).toHaveURL(ATTEMPT_URL);
        await expect(question(page, 3).getByLabel(words.answer)).toBeEditable();
        return ATTEMPT_URL.exec(new URL(page.url()).pathname)![1]!;
      };

      test("start, check, exam online and offline, review, submitting, receipt, paper", async ({
        page,
        context,
        createExam,
        enrollCandidate,
      }) => {
        // Generous: a dozen full-page pictures at two scales, on a machine that may be busy.
        test.setTimeout(300_000);
        const hour = 3600 * 1000;
        const exam = await createExam({
          title: words.name === "zh" ? "网络基础 — 期末考试" : "Networking 101 — final exam",
          opensAt: new Date(Date.now() - hour).toISOString(),
          closesAt: new Date(Date.now() + 6 * hour).toISOString(),
        });
        const candidate = await enrollCandidate(exam.id, {
          name: words.name === "zh" ? "王小明" : "Ada Lovelace",
          extraSeconds: 900,
        });

        await page.goto(candidate.joinUrl);
        await expect(page.getByRole("button", { name: words.start })).toBeVisible();
        await capture(page, "start");

        await page.getByRole("link", { name: words.checkDevice }).click();
        await expect(page.getByRole("list", { name: words.checks }).getByRole("listitem")).toHaveCount(7);
        await expect(page.getByRole("list", { name: words.checks })).not.toContainText(words.checking);
        await capture(page, "check");
        await page.goBack();

        const attemptId = await openExam(page, candidate.joinUrl);
        await question(page, 1).getByRole("radio", { name: "Network" }).check();
        await question(page, 3).getByLabel(words.answer).fill("ARP");
        await question(page, 4)
          .getByLabel(words.answer)
          .fill("Both sides must learn the other's initial sequence number.");
        await question(page, 5).getByLabel(words.answer).fill("20,5");
        await question(page, 2).getByRole("button", { name: words.flag }).click();
        await expectSaved(page, [1, 3, 4, 5]);
        await page.evaluate(() => window.scrollTo(0, 0));
        await capture(page, "exam-online");

        await question(page, 5).getByLabel(words.answer).fill("1,234");
        await question(page, 5).scrollIntoViewIfNeeded();
        await capture(page, "exam-numeric-refused", false);
        await question(page, 5).getByLabel(words.answer).fill("6");
        await expectSaved(page, [5]);

        await context.setOffline(true);
        await question(page, 3).getByLabel(words.answer).fill("ARP, the Address Resolution Protocol");
        await expect(page.getByText(words.offline, { exact: false })).toBeVisible();
        await page.evaluate(() => window.scrollTo(0, 0));
        await capture(page, "exam-offline");
        // Scrolled down, the sticky bar still says offline and how many answers wait.
        await question(page, 4).scrollIntoViewIfNeeded();
        await capture(page, "exam-offline-scrolled", false);
        await context.setOffline(false);
        await expectSaved(page, [3]);

        await page.getByRole("button", { name: words.review }).first().click();
        const review = page.getByRole("dialog", { name: words.review });
        await expect(review).toBeVisible();
        await capture(page, "review", false);

        const submitPath = `**/api/attempts/${attemptId}/submit`;
        await page.route(submitPath, (route) => route.abort("connectionreset"));
        await review.getByRole("button", { name: words.submit }).click();
        await expect(review.getByRole("button", { name: words.submitting })).toBeDisabled();
        await page.reload();
        await expect(page.getByRole("heading", { name: words.submitting })).toBeVisible();
        await page.evaluate(() => window.scrollTo(0, 0));
        await capture(page, "submitting");

        await page.unroute(submitPath);
        await expect(page.getByRole("heading", { name: words.submitted })).toBeVisible({ timeout: 60_000 });
        await capture(page, "submitted");

        await page.getByRole("link", { name: words.viewPaper }).click();
        await expect(page).toHaveURL(`/attempts/${attemptId}/paper`);
        await capture(page, "paper");

        await page.goto(candidate.joinUrl);
        await capture(page, "start-submitted");
      });

      test("near the deadline with answers not sent, and time up", async ({
        page,
        context,
        sql,
        createExam,
        enrollCandidate,
      }) => {
        test.setTimeout(240_000);
        const exam = await createExam({ title: words.name === "zh" ? "网络基础 — 小测验" : "Networking 101 — quiz" });
        const candidate = await enrollCandidate(exam.id);
        const attemptId = await openExam(page, candidate.joinUrl);

        // An hour-long attempt with five minutes left: the ten-minute warning.
        await sql.query(
          "UPDATE attempts SET started_at = now() - interval '55 minutes', deadline = now() + interval '5 minutes' WHERE id = $1",
          [attemptId],
        );
        await page.reload();
        await expect(question(page, 3).getByLabel(words.answer)).toBeEditable();
        await question(page, 3).getByLabel(words.answer).fill("ARP");
        await expectSaved(page, [3]);
        await capture(page, "ten-minutes", false);

        await context.setOffline(true);
        await question(page, 4).getByLabel(words.answer).fill("Written with no connection, near the end.");
        await question(page, 4).scrollIntoViewIfNeeded();
        await capture(page, "deadline-unsent", false);
        await page.getByRole("button", { name: words.leave }).click();
        await expect(page.getByRole("button", { name: words.stay })).toBeVisible();
        await capture(page, "leave-unsent", false);
        await page.getByRole("button", { name: words.stay }).click();
        await context.setOffline(false);
        await expectSaved(page, [4]);

        // Twenty seconds left, then offline until the time is up: the emergency file is offered.
        await sql.query("UPDATE attempts SET deadline = now() + interval '20 seconds' WHERE id = $1", [attemptId]);
        await page.reload();
        await expect(question(page, 3).getByLabel(words.answer)).toBeEditable();
        await context.setOffline(true);
        await question(page, 5).getByLabel(words.answer).fill("6");
        await expect(page.locator(".exam__bar")).toContainText(words.timeUp, { timeout: 30_000 });
        await expect(page.getByRole("button", { name: words.emergency })).toBeVisible();
        await page.evaluate(() => window.scrollTo(0, 0));
        await capture(page, "time-up-unsent");
        await context.setOffline(false);
      });

      test("a newer release took this device's store in another tab", async ({
        page,
        context,
        createExam,
        enrollCandidate,
      }) => {
        const exam = await createExam({ title: words.name === "zh" ? "网络基础 — 小测验" : "Networking 101 — quiz" });
        const candidate = await enrollCandidate(exam.id);
        await openExam(page, candidate.joinUrl);
        await question(page, 3).getByLabel(words.answer).fill("ARP");
        await expectSaved(page, [3]);
        const other = await context.newPage();
        await other.goto("/");
        await upgradeStoreAsNewerRelease(other);
        await other.close();
        await expect(page.getByRole("alert").filter({ hasText: words.updated })).toBeVisible();
        await page.evaluate(() => window.scrollTo(0, 0));
        await capture(page, "store-updated-elsewhere", false);
      });

      test("join link problems and pages without a session", async ({ page, createExam }) => {
        test.setTimeout(120_000);
        const exam = await createExam();
        await page.goto("/join/not-a-valid-token");
        await capture(page, "join-problem");
        await page.goto("/join-problem?reason=closed");
        await capture(page, "join-closed");
        await page.goto(`/exam/${exam.id}`);
        await capture(page, "exam-without-join-link");
        await page.goto("/no-such-page");
        await capture(page, "not-found");
        await page.goto("/?left=1");
        await capture(page, "home-left");
      });
    });
  }
}
