import { join } from "node:path";
import { fileURLToPath } from "node:url";

import type { Page } from "@playwright/test";

import { expect, test } from "../fixtures";

// Before the exam, a candidate checks their device: connection, clock, storage, private browsing, and
// whether the exam page can be reloaded offline. Each check says its result in words; the summary on top
// says "Ready" or what to fix.

const SCREENSHOTS = fileURLToPath(new URL("../.artifacts/screenshots/", import.meta.url));

const CHECK_TITLES = [
  "Connection",
  "Clock",
  "Saving answers on this device",
  "Storage space",
  "Keeping storage",
  "Private browsing",
  "Reloading without a connection",
];

const STATUS = /OK|Good to know|Worth a look|Fix this/;

function checkNamed(page: Page, title: string) {
  return page
    .getByRole("list", { name: "Checks" })
    .getByRole("listitem")
    .filter({
      has: page.getByRole("heading", { level: 3, name: title, exact: true }),
    });
}

async function openCheckPage(page: Page, joinUrl: string, examId: string) {
  await page.goto(joinUrl);
  await page.getByRole("link", { name: "Check this device" }).click();
  await expect(page).toHaveURL(`/exam/${examId}/check`);
  await expect(page.getByRole("heading", { level: 1, name: "Check this device" })).toBeVisible();
}

async function expectAllChecked(page: Page) {
  await expect(page.getByRole("list", { name: "Checks" }).getByRole("listitem")).toHaveCount(CHECK_TITLES.length);
  for (const title of CHECK_TITLES) await expect(checkNamed(page, title)).toContainText(STATUS);
  await expect(page.getByRole("list", { name: "Checks" })).not.toContainText("Checking…");
}

test.describe("The device check before an exam", () => {
  test("shows every check with a result, and a summary", async ({ page, createExam, enrollCandidate }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);

    await openCheckPage(page, candidate.joinUrl, exam.id);

    await expectAllChecked(page);
    await expect(page.getByRole("heading", { level: 2, name: /^(Ready|Ready, with .+|Not ready yet)$/ })).toBeVisible();
    await expect(checkNamed(page, "Connection")).toContainText(/Online\. Holdfast answered in \d+ ms\./);
    // Browser and server share this machine's clock.
    await expect(checkNamed(page, "Clock")).toContainText("This device's clock matches the server's.");
    await expect(checkNamed(page, "Saving answers on this device")).toContainText(
      "Works: answers are kept on this device",
    );
    await expect(checkNamed(page, "Storage space")).toContainText(/free for Holdfast/);
    await expect(checkNamed(page, "Reloading without a connection")).toContainText("OK");

    await page.getByRole("button", { name: "Check again" }).click();
    await expectAllChecked(page);
  });

  test("says when the device is offline, and that it is the thing to fix", async ({
    page,
    context,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    await openCheckPage(page, candidate.joinUrl, exam.id);
    await expectAllChecked(page);

    await context.setOffline(true);

    await expect(checkNamed(page, "Connection")).toContainText("This device is offline.");
    await expect(checkNamed(page, "Connection")).toContainText("Fix this");
    await expect(page.getByRole("heading", { level: 2, name: "Not ready yet" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Not ready yet" })).toContainText(
      "Connection: This device is offline.",
    );
    await expect(checkNamed(page, "Clock")).toContainText("Not compared");

    await context.setOffline(false);

    await expect(checkNamed(page, "Connection")).toContainText(/Online\./);
  });

  test("can be used with the keyboard alone", async ({ page, createExam, enrollCandidate }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    await openCheckPage(page, candidate.joinUrl, exam.id);
    await expectAllChecked(page);

    const checkAgain = page.getByRole("button", { name: "Check again" });
    await checkAgain.focus();
    await page.keyboard.press("Enter");
    await expectAllChecked(page);
    await expect(checkAgain).toBeEnabled();
  });
});

const VIEWPORTS = [
  { name: "desktop", use: { viewport: { width: 1280, height: 800 } } },
  {
    name: "phone",
    use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  },
] as const;

for (const viewport of VIEWPORTS) {
  test.describe(`Device check screenshots at ${viewport.name} width`, () => {
    test.use(viewport.use);

    test("online and offline", async ({ page, context, createExam, enrollCandidate }) => {
      const exam = await createExam({ title: `Networking 101 — final exam (${viewport.name} check)` });
      const candidate = await enrollCandidate(exam.id, { name: "Ada Lovelace" });
      await openCheckPage(page, candidate.joinUrl, exam.id);
      await expectAllChecked(page);
      await page.screenshot({ path: join(SCREENSHOTS, `${viewport.name}-candidate-check.png`), fullPage: true });

      await context.setOffline(true);
      await expect(page.getByRole("heading", { level: 2, name: "Not ready yet" })).toBeVisible();
      await page.screenshot({
        path: join(SCREENSHOTS, `${viewport.name}-candidate-check-offline.png`),
        fullPage: true,
      });

      await page.goto(`/exam/${exam.id}/never-opened`);
      await expect(
        page.getByRole("heading", { level: 1, name: "This page needs a connection the first time" }),
      ).toBeVisible();
      await page.screenshot({ path: join(SCREENSHOTS, `${viewport.name}-offline-fallback.png`), fullPage: true });
    });
  });
}
