import { readFile } from "node:fs/promises";

import { expect, test } from "../fixtures";

import { expectSaved, openExam, question } from "./exam-page";

// After the exam (issue 11, defect 4): the final screen says who submitted — the candidate here or on another
// device, the proctor, the server at the deadline — shows the receipt as a person reads it, and opens the paper
// as the server froze it, read-only, with a signed receipt to download.

test.describe("A submitted paper", () => {
  test("submitted by the proctor says so, and the frozen paper shows the answers read-only with a signed receipt", async ({
    page,
    adminApi,
    sql,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id, { name: "Ada Lovelace" });
    const attemptId = await openExam(page, candidate);
    await question(page, 1).getByRole("radio", { name: "Network" }).check();
    await question(page, 3).getByLabel("Your answer").fill("ARP");
    await question(page, 5).getByLabel("Your answer").fill("20,5");
    await expectSaved(page, [1, 3, 5]);

    const forced = await adminApi.post(`/api/proctor/attempts/${attemptId}/force-submit`, {
      data: { reason: "The candidate asked to stop." },
    });
    expect(forced.status(), await forced.text()).toBe(200);

    await expect(page.getByRole("heading", { name: "Your answers were submitted" })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText("Your proctor submitted your paper.")).toBeVisible();
    const { rows } = await sql.query<{ id: string; digest: string; receipt: string }>(
      "SELECT id, digest, receipt FROM submissions WHERE attempt_id = $1",
      [attemptId],
    );
    const submission = rows[0]!;
    const receipt = page.getByRole("region", { name: "Your answers were submitted" });
    await expect(receipt).toContainText(exam.title);
    await expect(receipt).toContainText("Ada Lovelace");
    await expect(receipt).toContainText(`${submission.digest.slice(0, 4)} ${submission.digest.slice(4, 8)}`);
    await expect(page.getByText(submission.id)).toBeVisible();
    await expect(page.getByText("Times in UTC")).toBeVisible();

    await page.getByRole("link", { name: "View your submitted paper" }).click();
    await expect(page).toHaveURL(`/attempts/${attemptId}/paper`);
    await expect(page.getByRole("heading", { level: 1, name: exam.title })).toBeVisible();
    await expect(page.getByText("Your proctor submitted your paper.")).toBeVisible();
    await expect(page.getByText("Checked now: the answers below still have the digest on the receipt.")).toBeVisible();
    const answers = page.getByRole("list", { name: "Your answers, as the server froze them" });
    await expect(answers.getByRole("article")).toHaveCount(exam.questions.length);
    const first = answers.getByRole("article", { name: "Question 1" });
    await expect(first.getByRole("listitem").filter({ hasText: "your choice" })).toHaveText(/Network/);
    await expect(answers.getByRole("article", { name: "Question 3" })).toContainText("ARP");
    await expect(answers.getByRole("article", { name: "Question 5" })).toContainText("20.5");
    await expect(answers.getByRole("article", { name: "Question 4" })).toContainText("No answer");
    // Read-only: nothing to type into, nothing to press but the receipt.
    await expect(page.getByRole("textbox")).toHaveCount(0);
    await expect(page.getByRole("radio")).toHaveCount(0);

    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download receipt" }).click();
    const file = JSON.parse(await readFile(await (await downloading).path(), "utf8")) as Record<string, unknown>;
    expect(file).toMatchObject({
      attemptId,
      submissionId: submission.id,
      digest: submission.digest,
      receipt: submission.receipt,
      source: "proctor",
      examTitle: exam.title,
      candidateName: "Ada Lovelace",
    });
  });

  test("submitted on another device says so; on this device too", async ({
    page,
    browser,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    await openExam(page, candidate);

    const phoneContext = await browser.newContext();
    try {
      const phone = await phoneContext.newPage();
      await openExam(phone, candidate);
      await phone.getByRole("button", { name: "Review and submit" }).first().click();
      await phone
        .getByRole("dialog", { name: "Review and submit" })
        .getByRole("button", { name: "Submit now" })
        .click();
      await expect(phone.getByText("You submitted your paper from this device.")).toBeVisible();
    } finally {
      await phoneContext.close();
    }

    await expect(page.getByText("You submitted your paper from another device or browser.")).toBeVisible({
      timeout: 20_000,
    });
  });

  test("is only the candidate's own, and an open attempt has none yet", async ({
    page,
    browser,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const alice = await enrollCandidate(exam.id);
    const attemptId = await openExam(page, alice);
    await page.goto(`/attempts/${attemptId}/paper`);
    await expect(page).toHaveURL(`/attempts/${attemptId}`);

    const bobsContext = await browser.newContext();
    try {
      const bobsPage = await bobsContext.newPage();
      const bob = await enrollCandidate(exam.id);
      await bobsPage.goto(bob.joinUrl);
      const response = await bobsPage.goto(`/attempts/${attemptId}/paper`);
      expect(response?.status()).toBe(404);
    } finally {
      await bobsContext.close();
    }
  });
});
