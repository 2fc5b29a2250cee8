import type { Browser, BrowserContext, Page } from "@playwright/test";

import { expect, test, type Candidate } from "../fixtures";

// A proctor's announcement reaching candidates (docs/sync-protocol.md, "Announcements"), in both languages:
// the candidate whose page is open sees it within 2 s (pushed on the page's stream); the one whose device
// was offline when it was sent sees it once the device is back online (the reopened stream catches up);
// the dashboard counts both devices' receipts as they come.

const LANGUAGES = [
  {
    locale: "en-US",
    start: "Start",
    timer: "Time left",
    panel: "Announcements",
    message: "Message to candidates",
    compose: "Send announcement…",
    confirm: "Send now",
    text: "Question 3: read “metres” as “meters”. Nothing else changes.",
    received: (count: number) =>
      `Received by ${count} of 2 candidates (${count} ${count === 1 ? "device" : "devices"})`,
    dismiss: "Dismiss",
    toggle: "Announcements (1)",
    showAgain: "Show again",
  },
  {
    locale: "zh-CN",
    start: "开始",
    timer: "剩余时间",
    panel: "公告",
    message: "给考生的消息",
    compose: "发送公告…",
    confirm: "立即发送",
    text: "第 3 题：“米”按公制理解，其他不变。",
    received: (count: number) => `2 名考生中已有 ${count} 名收到（${count} 台设备）`,
    dismiss: "关闭",
    toggle: "公告（1）",
    showAgain: "重新显示",
  },
] as const;

type Language = (typeof LANGUAGES)[number];

/** A candidate's own browser, on the exam page, its answers opened on the device. */
async function candidatePage(browser: Browser, language: Language, candidate: Candidate) {
  const context = await browser.newContext({ locale: language.locale });
  const page = await context.newPage();
  await page.goto(candidate.joinUrl);
  // The page's own event stream: what pushes an announcement (a page without it would only catch up later).
  const stream = page.waitForRequest(/\/events\?deviceId=/);
  await page.getByRole("button", { name: language.start, exact: true }).click();
  await expect(page).toHaveURL(/\/attempts\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("timer", { name: language.timer })).toBeVisible();
  await stream;
  return { context, page, shown: shownIn(page, language) };
}

/** The announcements shown on the exam page (the polite live region), not the hidden list of all of them. */
function shownIn(page: Page, language: Language) {
  return page.getByRole("region", { name: language.panel, exact: true }).locator("[aria-live=polite]");
}

for (const language of LANGUAGES) {
  test.describe(`Announcements, ${language.locale}`, () => {
    test.use({ locale: language.locale });

    test("the proctor sends one; the online candidate sees it within 2 s, the offline one after reconnecting", async ({
      browser,
      page,
      createExam,
      enrollCandidate,
      createStaff,
      assignProctor,
      signIn,
    }) => {
      test.setTimeout(120_000);
      const exam = await createExam();
      const online = await enrollCandidate(exam.id);
      const offline = await enrollCandidate(exam.id);
      const proctor = await createStaff("proctor");
      await assignProctor(exam.id, proctor);
      await signIn(page.context(), proctor);

      const contexts: BrowserContext[] = [];
      try {
        const a = await candidatePage(browser, language, online);
        const b = await candidatePage(browser, language, offline);
        contexts.push(a.context, b.context);
        await b.context.setOffline(true);

        await page.goto(`/proctor/exams/${exam.id}`);
        const panel = page.getByRole("region", { name: language.panel, exact: true });
        // Folded to one line until opened, so the candidates' table stays in view.
        await expect(panel.getByLabel(language.message)).toBeHidden();
        await panel.locator("summary").click();
        await panel.getByLabel(language.message).fill(language.text);
        await panel.getByRole("button", { name: language.compose }).click();
        await panel.getByRole("button", { name: language.confirm }).click();

        // Pushed to the open page: within 2 s, shown calmly (no dialog) and focus left where it was.
        await expect(a.shown.getByText(language.text)).toBeVisible({ timeout: 2_000 });
        await expect(a.page.getByRole("dialog")).toHaveCount(0);
        await expect(b.shown.getByText(language.text)).toHaveCount(0);
        await expect(panel.getByText(language.received(1))).toBeVisible({ timeout: 10_000 });

        // Back online: the page reopens its stream, reads back what it missed, and acknowledges it.
        await b.context.setOffline(false);
        await expect(b.shown.getByText(language.text)).toBeVisible({ timeout: 15_000 });
        await expect(panel.getByText(language.received(2))).toBeVisible({ timeout: 10_000 });

        // Dismissed, then shown again from the toggle; the choice survives a reload.
        await a.shown.getByRole("button", { name: language.dismiss }).click();
        await expect(a.shown.getByText(language.text)).toHaveCount(0);
        await a.page.reload();
        await expect(a.page.getByRole("timer", { name: language.timer })).toBeVisible();
        await a.page.getByRole("button", { name: language.toggle }).click();
        await a.page.getByRole("button", { name: language.showAgain }).click();
        await expect(a.shown.getByText(language.text)).toBeVisible();
      } finally {
        for (const context of contexts) await context.close();
      }
    });
  });
}
