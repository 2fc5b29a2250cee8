import type { Page } from "@playwright/test";

import { expect, test } from "../fixtures";

// A candidate whose browser speaks Chinese sees every candidate page in Chinese, from the start page to the
// exam page, and the exam page stays Chinese after an offline reload (its messages travel inside the page the
// service worker keeps). An English browser sees English. The exam's own words (title, prompts, options) are
// shown as the organiser wrote them, in every language.

const ATTEMPT_URL = /\/attempts\/[0-9a-f-]{36}$/;

/** Everything the worker needs for an offline reload of this page is kept: the page and its assets. */
async function isKeptForOffline(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    if (!navigator.serviceWorker.controller) return false;
    const assets = performance
      .getEntriesByType("resource")
      .map((entry) => new URL(entry.name))
      .filter((url) => url.origin === location.origin && url.pathname.startsWith("/_next/static/"))
      .map((url) => url.href);
    const found = await Promise.all(
      [location.pathname, ...assets].map((key) => caches.match(key, { ignoreVary: true })),
    );
    return found.every((response) => response !== undefined);
  });
}

/** The language the kept copy of this page was rendered in (its `<html lang>`). */
async function keptLanguage(page: Page): Promise<string | null> {
  return page.evaluate(async () => {
    const kept = await caches.match(location.pathname, { ignoreVary: true });
    if (!kept) return null;
    return /<html[^>]*\slang="([^"]+)"/.exec(await kept.text())?.[1] ?? null;
  });
}

test.describe("In a Chinese browser", () => {
  test.use({ locale: "zh-CN" });

  test("the start page, the check page and the exam page are in Chinese, and the exam page stays Chinese offline", async ({
    page,
    context,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam({ title: "网络基础 — 期末考试" });
    const candidate = await enrollCandidate(exam.id, { name: "王小明" });

    await page.goto(candidate.joinUrl);
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(page.getByRole("heading", { level: 1, name: exam.title })).toBeVisible();
    await expect(page.getByText("当前考生：王小明")).toBeVisible();
    await expect(page.getByRole("region", { name: "考试规则" })).toContainText(exam.rules ?? "");
    await expect(page.getByText("1小时", { exact: true })).toBeVisible();
    await expect(page.getByText(/^时间均为 /)).toBeVisible();

    await page.getByRole("link", { name: "检查此设备" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "检查此设备" })).toBeVisible();
    await expect(page.getByRole("list", { name: "检查项目" }).getByRole("listitem")).toHaveCount(7);
    await expect(page.getByRole("heading", { level: 3, name: "网络连接", exact: true })).toBeVisible();
    await expect(page.getByText(/^已联网。Holdfast 响应用时/)).toBeVisible();
    await page.getByRole("link", { name: `返回“${exam.title}”` }).click();

    await page.getByRole("button", { name: "开始" }).click();
    await expect(page).toHaveURL(ATTEMPT_URL);
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(page.getByRole("timer", { name: "剩余时间" })).toBeVisible();
    await expect(page.getByRole("button", { name: "检查并交卷" }).first()).toBeVisible();
    await expect(page.getByRole("article", { name: "第 1 题" })).toContainText(exam.questions[0]!.prompt);
    await expect(page.getByRole("navigation", { name: "题目导航" })).toBeVisible();
    await expect(page.getByRole("article", { name: "第 3 题" }).getByLabel("您的作答")).toBeEditable();
    await page.getByRole("article", { name: "第 3 题" }).getByLabel("您的作答").fill("ARP");
    await expect(page.getByRole("article", { name: "第 3 题" }).getByText("已保存到服务器")).toBeVisible();

    await expect.poll(() => isKeptForOffline(page)).toBe(true);
    await expect.poll(() => keptLanguage(page)).toBe("zh-CN");
    await context.setOffline(true);
    await page.reload();

    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(page.getByRole("heading", { level: 1, name: exam.title })).toBeVisible();
    await expect(page.getByRole("button", { name: "检查并交卷" }).first()).toBeVisible();
    await expect(page.getByRole("article", { name: "第 3 题" }).getByLabel("您的作答")).toHaveValue("ARP");
    await expect(page.locator(".exam__bar")).toContainText("离线");
    await expect(page.getByText("您已离线。", { exact: false })).toBeVisible();
    await expect(page.getByText("Review and submit")).toHaveCount(0);
  });

  test("a number typed with a decimal comma, or not a number, is answered in Chinese", async ({
    page,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    await page.goto(candidate.joinUrl);
    await page.getByRole("button", { name: "开始" }).click();
    const numeric = page.getByRole("article", { name: "第 5 题" }).getByLabel("您的作答");
    await expect(numeric).toBeEditable();

    await numeric.fill("abc");
    await expect(numeric).toHaveAccessibleDescription(/这不是一个数字/);
    await numeric.fill("２０，５");
    await expect(page.getByRole("article", { name: "第 5 题" }).getByText("识别为 20.5。")).toBeVisible();
    await expect(page.getByRole("article", { name: "第 5 题" }).getByText("已保存到服务器")).toBeVisible();
  });

  test("offline, a page never opened here says so in Chinese", async ({
    page,
    context,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    await page.goto(candidate.joinUrl);
    await expect.poll(() => isKeptForOffline(page)).toBe(true);

    await context.setOffline(true);
    await page.goto(`/exam/${exam.id}/check`);
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(page.getByRole("heading", { level: 1, name: "此页面首次打开时需要网络连接" })).toBeVisible();
  });

  test("a bad join link and a missing page say so in Chinese", async ({ page }) => {
    await page.goto("/join/not-a-valid-token");
    await expect(page.getByRole("heading", { level: 1, name: "此加入链接无效" })).toBeVisible();
    await page.goto("/no-such-page");
    await expect(page.getByRole("heading", { level: 1, name: "页面未找到" })).toBeVisible();
  });
});

test.describe("In an English browser", () => {
  test.use({ locale: "en-US" });

  test("the start page and the exam page are in English", async ({ page, createExam, enrollCandidate }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    await page.goto(candidate.joinUrl);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("link", { name: "Check this device" })).toBeVisible();
    await page.getByRole("button", { name: "Start" }).click();
    await expect(page).toHaveURL(ATTEMPT_URL);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("timer", { name: "Time left" })).toBeVisible();
    await expect(page.getByRole("article", { name: "Question 1" })).toBeVisible();
    await expect(page.getByText("检查并交卷")).toHaveCount(0);
  });

  test("switching to Chinese on the exam page sticks, and an offline reload keeps it", async ({
    page,
    context,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    await page.goto(candidate.joinUrl);
    await page.getByRole("button", { name: "Start" }).click();
    await expect(page).toHaveURL(ATTEMPT_URL);
    await expect.poll(() => isKeptForOffline(page)).toBe(true);

    await page.getByRole("combobox", { name: "Language" }).selectOption("zh-CN");
    await expect(page.getByRole("button", { name: "检查并交卷" }).first()).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect.poll(() => keptLanguage(page)).toBe("zh-CN");

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole("button", { name: "检查并交卷" }).first()).toBeVisible();
  });
});
