import { readFile } from "node:fs/promises";

import type { Page } from "@playwright/test";

import { expect, test } from "../fixtures";

import { expectSaved, openExam, question } from "./exam-page";

async function openReview(page: Page) {
  await page.getByRole("button", { name: "Review and submit" }).first().click();
  const review = page.getByRole("dialog", { name: "Review and submit" });
  await expect(review).toBeVisible();
  return review;
}

const receiptHeading = (page: Page) => page.getByRole("heading", { name: "Your answers were submitted" });

test.describe("Submitting the exam", () => {
  for (const clicks of [2, 3]) {
    test(`with ${clicks} quick clicks on Submit now makes exactly one submission and ends on the receipt`, async ({
      page,
      sql,
      createExam,
      enrollCandidate,
    }) => {
      const exam = await createExam();
      const candidate = await enrollCandidate(exam.id);
      const attemptId = await openExam(page, candidate);
      const submitKeys: string[] = [];
      page.on("request", (request) => {
        if (request.url().endsWith(`/api/attempts/${attemptId}/submit`)) {
          submitKeys.push(request.headers()["idempotency-key"] ?? "");
        }
      });

      await question(page, 3).getByLabel("Your answer").fill("ARP");
      await expectSaved(page, [3]);
      const review = await openReview(page);
      await expect(review.getByRole("region", { name: "Not answered (4)" })).toBeVisible();

      await review.getByRole("button", { name: "Submit now" }).click({ clickCount: clicks });

      await expect(receiptHeading(page)).toBeVisible();
      const { rows } = await sql.query<{ id: string; digest: string }>(
        "SELECT id, digest FROM submissions WHERE attempt_id = $1",
        [attemptId],
      );
      expect(rows).toHaveLength(1);
      expect(new Set(submitKeys).size).toBe(1);
      await expect(page.getByText(rows[0]!.digest)).toBeVisible();
      await expect(page.getByText(rows[0]!.id)).toBeVisible();
      await expect(page.getByText("differs from what this device holds")).toHaveCount(0);

      const downloading = page.waitForEvent("download");
      await page.getByRole("button", { name: "Download receipt" }).click();
      const download = await downloading;
      const receipt = JSON.parse(await readFile(await download.path(), "utf8")) as Record<string, unknown>;
      expect(receipt).toMatchObject({
        attemptId,
        submissionId: rows[0]!.id,
        digest: rows[0]!.digest,
        examTitle: exam.title,
      });
      expect(typeof receipt.receipt).toBe("string");
      expect(typeof receipt.submittedAt).toBe("string");

      await page.reload();
      await expect(receiptHeading(page)).toBeVisible();
    });
  }

  test("survives a reload while submitting: the page resumes with the same key and ends on the receipt", async ({
    page,
    sql,
    createExam,
    enrollCandidate,
  }) => {
    test.setTimeout(60_000);
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    const attemptId = await openExam(page, candidate);
    await question(page, 5).getByLabel("Your answer").fill("6");

    // The network drops every submit until the reload has happened.
    const submitKeys: string[] = [];
    const submitPath = `**/api/attempts/${attemptId}/submit`;
    await page.route(submitPath, async (route) => {
      submitKeys.push(route.request().headers()["idempotency-key"] ?? "");
      await route.abort("connectionreset");
    });

    const review = await openReview(page);
    await review.getByRole("button", { name: "Submit now" }).click();
    await expect(review.getByRole("button", { name: "Submitting…" })).toBeDisabled();
    await expect.poll(() => submitKeys.length).toBeGreaterThan(0);

    await page.reload();
    await expect(page.getByRole("heading", { name: "Submitting…" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Submitting…" }).first()).toBeDisabled();
    await expect(question(page, 5).getByLabel("Your answer")).not.toBeEditable();

    await page.unroute(submitPath);
    page.on("request", (request) => {
      if (request.url().endsWith("/submit")) submitKeys.push(request.headers()["idempotency-key"] ?? "");
    });

    await expect(receiptHeading(page)).toBeVisible({ timeout: 30_000 });
    const { rows } = await sql.query("SELECT id FROM submissions WHERE attempt_id = $1", [attemptId]);
    expect(rows).toHaveLength(1);
    expect(new Set(submitKeys).size).toBe(1);
  });
});
