import { fileURLToPath } from "node:url";

import type { Page } from "@playwright/test";

import { expect, test } from "../fixtures";

import { heartbeat, startThroughApi, submitThroughApi, type ApiCandidate } from "./dashboard-page";

// Pictures of the dashboard with a class in every state, at desktop and phone width and in each language,
// for a person to look at (test-results/proctor-screenshots/, not committed). The states are seeded through
// the candidate API; "auto-submitted" has no API a test may call before the deadline, so that one row's
// source is set in SQL.

const SCREENSHOTS = fileURLToPath(new URL("../../test-results/proctor-screenshots/", import.meta.url));

const VIEWPORTS = [
  { name: "desktop-1280", use: { viewport: { width: 1280, height: 800 } } },
  {
    name: "phone-390",
    use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  },
] as const;

/** The words each picture waits for, in the browser's language (the names are candidate content: as written). */
const LANGUAGES = [
  {
    locale: "en-US",
    table: "Candidates",
    close: "Close",
    count: "8 candidates",
    atRisk: "At risk",
    digestDiffers: "digest differs",
    autoSubmitted: "Auto-submitted",
    health: /^Exam health/,
    chart: /Last hour, per minute/,
    extend: "Extend time",
    extendTitle: (name: string) => `Extend time for ${name}`,
    reason: "Reason",
    submit: "Extend",
  },
  {
    locale: "zh-CN",
    table: "考生",
    close: "关闭",
    count: "共 8 名考生",
    atRisk: "有风险",
    digestDiffers: "摘要不符",
    autoSubmitted: "已自动提交",
    health: /^考试运行状况/,
    chart: /过去一小时，按分钟统计/,
    extend: "延长时间",
    extendTitle: (name: string) => `为 ${name} 延长时间`,
    reason: "原因",
    submit: "延长",
  },
] as const;

for (const viewport of VIEWPORTS) {
  for (const words of LANGUAGES) {
    test.describe(`The proctor dashboard at ${viewport.name} in ${words.locale}`, () => {
      test.use({ ...viewport.use, locale: words.locale });
      const shot = (name: string) => `${SCREENSHOTS}${viewport.name}-${words.locale}-${name}.png`;
      const candidateRow = (page: Page, name: string) =>
        page.getByRole("table", { name: words.table }).getByRole("row").filter({ hasText: name });

      test("a class in every state", async ({
        page,
        server,
        sql,
        createExam,
        enrollCandidate,
        createStaff,
        signIn,
      }) => {
        test.setTimeout(90_000);
        const exam = await createExam({ title: `Networking 101 — final exam (${viewport.name}, ${words.locale})` });
        const enroll = (name: string) =>
          enrollCandidate(exam.id, {
            name,
            email: `${name.split(" ")[0]!.toLowerCase()}.${Date.now() % 100_000}@example.org`,
          });
        const started: ApiCandidate[] = [];
        const start = async (name: string) => {
          const candidate = await startThroughApi(server.baseURL, exam.id, await enroll(name));
          started.push(candidate);
          return candidate;
        };

        await enroll("Ana Not-Started");
        await heartbeat(await start("Bea Online"), { online: true });
        await heartbeat(await start("Cem Offline"), { online: false, pending: 3, oldestPendingMs: 20_000 });
        await heartbeat(await start("Dana At-Risk"), { online: true, pending: 4, oldestPendingMs: 150_000 });
        await heartbeat(await start("Eve Failing"), {
          online: true,
          pending: 2,
          oldestPendingMs: 30_000,
          consecutiveFailures: 4,
        });
        await submitThroughApi(await start("Finn Submitted"));
        const auto = await start("Gus Auto-Submitted");
        await submitThroughApi(auto);
        await sql.query("UPDATE submissions SET source = 'auto' WHERE attempt_id = $1", [auto.attemptId]);
        await submitThroughApi(await start("Hal Digest-Mismatch"), { digestDiffers: true });

        const admin = await createStaff("admin");
        await signIn(page.context(), admin);
        // The snapshot alone draws the table; the pictures do not wait for the events stream.
        await page.goto(`/proctor/exams/${exam.id}`);
        await expect(page.getByText(words.count, { exact: true })).toBeVisible();
        await expect(candidateRow(page, "Dana At-Risk")).toContainText(words.atRisk);
        await expect(candidateRow(page, "Hal Digest-Mismatch")).toContainText(words.digestDiffers);
        await expect(candidateRow(page, "Gus Auto-Submitted")).toContainText(words.autoSubmitted);
        await page.screenshot({ path: shot("dashboard"), fullPage: true });

        // The exam's health, opened: the numbers in words and the last hour's chart.
        await page.getByText(words.health).first().click();
        await expect(page.getByRole("img", { name: words.chart })).toBeVisible();
        await page.screenshot({ path: shot("health"), fullPage: false });
        await page.getByText(words.health).first().click();

        await candidateRow(page, "Cem Offline").click();
        await expect(page.getByRole("dialog", { name: "Cem Offline" })).toBeVisible();
        await page.screenshot({ path: shot("drawer"), fullPage: false });
        // On a phone the drawer covers the table: close it first.
        await page.getByRole("dialog", { name: "Cem Offline" }).getByRole("button", { name: words.close }).click();
        await candidateRow(page, "Dana At-Risk").click();
        await expect(page.getByRole("dialog", { name: "Dana At-Risk" })).toBeVisible();
        await page.screenshot({ path: shot("drawer-at-risk"), fullPage: false });

        await page.getByRole("dialog", { name: "Dana At-Risk" }).getByRole("button", { name: words.extend }).click();
        const extend = page.getByRole("dialog", { name: words.extendTitle("Dana At-Risk") });
        await extend.getByLabel(words.reason).fill("ab");
        await extend.getByRole("button", { name: words.submit, exact: true }).click();
        // Refused beside the field: the reason is too short.
        await expect(extend.getByLabel(words.reason)).toHaveAccessibleDescription(/\S/);
        await page.screenshot({ path: shot("extend-error"), fullPage: false });

        for (const candidate of started) await candidate.request.dispose();
      });
    });
  }
}
