import { join } from "node:path";
import { fileURLToPath } from "node:url";

import type { Page } from "@playwright/test";

import { expect, test } from "../fixtures";

import { expectSaved, openExam, question } from "./exam-page";

// Not a check of behaviour: pictures of the exam page in each of its states, at desktop and phone width, for a
// person to look at (e2e/.artifacts/screenshots/, not committed). The other exam specs assert what it does.

const SCREENSHOTS = fileURLToPath(new URL("../.artifacts/screenshots/", import.meta.url));

const VIEWPORTS = [
  { name: "desktop", use: { viewport: { width: 1280, height: 800 } } },
  {
    name: "phone",
    use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  },
] as const;

async function capture(page: Page, viewport: string, name: string, fullPage = true) {
  await page.screenshot({ path: join(SCREENSHOTS, `${viewport}-exam-${name}.png`), fullPage });
}

for (const viewport of VIEWPORTS) {
  test.describe(`Exam page screenshots at ${viewport.name} width`, () => {
    test.use(viewport.use);

    test("online, offline, review, submitting, submitted", async ({ page, context, createExam, enrollCandidate }) => {
      test.setTimeout(90_000);
      const exam = await createExam({ title: "Networking 101 — final exam" });
      const candidate = await enrollCandidate(exam.id, { name: "Ada Lovelace" });
      const attemptId = await openExam(page, candidate);

      await question(page, 1).getByRole("radio", { name: "Network" }).check();
      await question(page, 3).getByLabel("Your answer").fill("ARP");
      await question(page, 4)
        .getByLabel("Your answer")
        .fill("Both sides must learn the other's initial sequence number.");
      await question(page, 2).getByRole("button", { name: "Flag for review" }).click();
      await expectSaved(page, [1, 3, 4]);
      await page.evaluate(() => window.scrollTo(0, 0));
      await capture(page, viewport.name, "online");

      await context.setOffline(true);
      await question(page, 5).getByLabel("Your answer").fill("6");
      await question(page, 3).getByLabel("Your answer").fill("ARP, the Address Resolution Protocol");
      await expect(page.getByText("You are offline.", { exact: false })).toBeVisible();
      await page.evaluate(() => window.scrollTo(0, 0));
      await capture(page, viewport.name, "offline");
      await context.setOffline(false);
      await expectSaved(page, [3, 5]);

      await page.getByRole("button", { name: "Review and submit" }).first().click();
      const review = page.getByRole("dialog", { name: "Review and submit" });
      await expect(review).toBeVisible();
      await capture(page, viewport.name, "review", false);

      const submitPath = `**/api/attempts/${attemptId}/submit`;
      await page.route(submitPath, (route) => route.abort("connectionreset"));
      await review.getByRole("button", { name: "Submit now" }).click();
      await expect(review.getByRole("button", { name: "Submitting…" })).toBeDisabled();
      await capture(page, viewport.name, "submitting-dialog", false);
      await page.reload();
      await expect(page.getByRole("heading", { name: "Submitting…" })).toBeVisible();
      await page.evaluate(() => window.scrollTo(0, 0));
      await capture(page, viewport.name, "submitting");

      await page.unroute(submitPath);
      await expect(page.getByRole("heading", { name: "Your answers were submitted" })).toBeVisible({ timeout: 30_000 });
      await capture(page, viewport.name, "submitted");
    });

    test("ten minutes left", async ({ page, createExam, enrollCandidate }) => {
      const exam = await createExam({ title: "Networking 101 — short quiz", durationSeconds: 300 });
      const candidate = await enrollCandidate(exam.id);
      await openExam(page, candidate);
      await expect(page.getByText("Less than 10 minutes left.")).toBeVisible();
      await capture(page, viewport.name, "ten-minutes", false);
    });
  });
}
