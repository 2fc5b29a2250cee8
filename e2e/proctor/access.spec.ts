import { expect, test } from "../fixtures";

// The dashboard of an exam is the proctor's only if they are assigned to it: any other exam's page is the
// same 404 as an exam that does not exist, so its existence is not revealed.

test.describe("Who may open an exam's live dashboard", () => {
  test("a proctor not assigned to the exam gets the 404 page, and the assigned proctor gets the dashboard", async ({
    page,
    browser,
    createExam,
    createStaff,
    assignProctor,
    signIn,
  }) => {
    const exam = await createExam();
    const outsider = await createStaff("proctor");
    const assigned = await createStaff("proctor");
    await assignProctor(exam.id, assigned);

    await signIn(page.context(), outsider);
    const response = await page.goto(`/proctor/exams/${exam.id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page.getByText(exam.title)).toHaveCount(0);

    const assignedContext = await browser.newContext();
    await signIn(assignedContext, assigned);
    const assignedPage = await assignedContext.newPage();
    await assignedPage.goto("/proctor");
    await assignedPage.getByRole("link", { name: exam.title }).click();
    await expect(assignedPage).toHaveURL(`/proctor/exams/${exam.id}`);
    await expect(assignedPage.getByRole("heading", { level: 1, name: exam.title })).toBeVisible();
    await assignedContext.close();
  });
});
