import { expect, test } from "../fixtures";

import { candidateRow, drawer, openDashboard } from "./dashboard-page";

test.describe("A proctor working the dashboard from the keyboard", () => {
  test("opens a candidate with Enter, closes the drawer with Escape, and is back on the same row", async ({
    page,
    createExam,
    enrollCandidate,
    createStaff,
    assignProctor,
    signIn,
  }) => {
    const exam = await createExam();
    const first = await enrollCandidate(exam.id, { name: `Kai Keyboard ${Date.now() % 100_000}` });
    await enrollCandidate(exam.id, { name: `Lea Later ${Date.now() % 100_000}` });
    const proctor = await createStaff("proctor");
    await assignProctor(exam.id, proctor);
    await signIn(page.context(), proctor);
    await openDashboard(page, exam.id);

    const row = candidateRow(page, first.name);
    await row.focus();
    await page.keyboard.press("Enter");
    const details = drawer(page, first.name);
    await expect(details).toBeVisible();
    await expect(details).toContainText("Not started");

    await page.keyboard.press("Escape");
    await expect(details).toHaveCount(0);
    await expect(row).toBeFocused();
  });
});
