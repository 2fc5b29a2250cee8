import { expect, test } from "../fixtures";

import { ATTEMPT_URL, expectReady, expectSaved, openExam, question } from "./exam-page";

// The exam page by keyboard (issue 11, defect 7): a skip link to the first question, focus on the first
// question after Start, the review dialog opening on its title, a flag button that says when a question is
// flagged, and a way to leave a shared computer that warns while answers are not sent.

test.describe("The exam page by keyboard", () => {
  test("Start lands on the first question, and the skip link is the first Tab stop", async ({
    page,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    await page.goto(candidate.joinUrl);
    await page.getByRole("button", { name: "Start" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(ATTEMPT_URL);
    await expect(question(page, 1).getByRole("heading", { name: "Question 1" })).toBeFocused();

    // A reload leaves focus to the browser: the first Tab stop is the skip link.
    await page.reload();
    await expectReady(page);
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to the first question" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press("Enter");
    await expect(question(page, 1).getByRole("heading", { name: "Question 1" })).toBeFocused();
  });

  test("the review dialog opens with focus on its title, and the flag button says when a question is flagged", async ({
    page,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    await openExam(page, candidate);

    const flag = question(page, 2).getByRole("button", { name: "Flag for review" });
    await flag.focus();
    await page.keyboard.press("Enter");
    await expect(question(page, 2).getByRole("button", { name: "Flagged for review: remove the flag" })).toBeFocused();

    await page.getByRole("button", { name: "Review and submit" }).first().click();
    const review = page.getByRole("dialog", { name: "Review and submit" });
    await expect(review.getByRole("heading", { name: "Review and submit" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(review).toBeHidden();
  });

  test("leaving a shared computer warns about unsent answers, then signs out and forgets the kept pages", async ({
    page,
    context,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    await openExam(page, candidate);
    const attemptUrl = page.url();
    await question(page, 3).getByLabel("Your answer").fill("ARP");
    await expectSaved(page, [3]);

    await context.setOffline(true);
    await question(page, 4).getByLabel("Your answer").fill("Written offline.");
    await page.getByRole("button", { name: "Leave this device…" }).click();
    await expect(page.getByText("1 answer has not reached the server yet.", { exact: false })).toBeFocused();
    await page.getByRole("button", { name: "Leave anyway" }).click();
    // Offline, the session cannot be ended: the page says so and stays.
    await expect(page.getByRole("alert").filter({ hasText: "Holdfast could not be reached." })).toBeVisible();

    await context.setOffline(false);
    await expectSaved(page, [4]);
    await page.getByRole("button", { name: "Leave this device" }).click();
    await expect(page).toHaveURL("/?left=1");
    await expect(page.getByText("You have left this device", { exact: false })).toBeVisible();
    expect(await page.evaluate(async () => (await caches.keys()).filter((name) => name.includes("pages")))).toEqual([]);

    const response = await page.goto(attemptUrl);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Open your personal join link" })).toBeVisible();
  });
});
