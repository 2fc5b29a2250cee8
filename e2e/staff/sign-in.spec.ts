import type { Page } from "@playwright/test";

import { expect, test, type StaffUser } from "../fixtures";

async function signInThroughTheForm(page: Page, staff: Pick<StaffUser, "email" | "password">) {
  await page.getByLabel("Email").fill(staff.email);
  await page.getByLabel("Password").fill(staff.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test.describe("Staff sign-in", () => {
  test("an admin signs in and sees the exams, each with its counts and its own page", async ({
    page,
    createStaff,
    createExam,
    enrollCandidate,
  }) => {
    const admin = await createStaff("admin");
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);

    await page.goto("/signin");
    await signInThroughTheForm(page, admin);

    await expect(page).toHaveURL("/admin");
    await expect(page.getByRole("heading", { level: 1, name: "Exams" })).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: exam.title });
    await expect(row.getByRole("cell")).toHaveText(["Published", "1 hour", "Always open", "5", "1", "0", "0"]);

    await row.getByRole("link", { name: exam.title }).click();

    await expect(page).toHaveURL(`/admin/exams/${exam.id}`);
    await expect(page.getByRole("heading", { level: 1, name: exam.title })).toBeVisible();
    await expect(page.getByRole("heading", { level: 3, name: /^Question \d+$/ })).toHaveCount(5);
    await expect(page.getByText("Answer key: 6")).toBeVisible();
    const candidateRow = page.getByRole("row").filter({ hasText: candidate.email });
    await expect(candidateRow).toContainText("Not started");
    await expect(candidateRow).toContainText(candidate.joinUrl);
  });

  test("a wrong password shows an error and stays signed out", async ({ page, context, createStaff }) => {
    const admin = await createStaff("admin");

    await page.goto("/signin");
    await signInThroughTheForm(page, { email: admin.email, password: "not the password" });

    await expect(page.getByRole("alert").filter({ hasText: "Email or password is incorrect." })).toBeVisible();
    await expect(page).toHaveURL("/signin");
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain("holdfast_staff");
    await page.goto("/admin");
    await expect(page).toHaveURL("/signin?next=%2Fadmin");
  });

  test("a proctor signs in, lands on their exams, and cannot open admin pages", async ({
    page,
    createStaff,
    createExam,
    assignProctor,
  }) => {
    const proctor = await createStaff("proctor");
    const assigned = await createExam();
    const notAssigned = await createExam();
    await assignProctor(assigned.id, proctor);

    await page.goto("/signin");
    await signInThroughTheForm(page, proctor);

    await expect(page).toHaveURL("/proctor");
    await expect(page.getByRole("heading", { level: 1, name: "Your exams" })).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: assigned.title })).toBeVisible();
    await expect(page.getByRole("link", { name: assigned.title })).toHaveAttribute(
      "href",
      `/proctor/exams/${assigned.id}`,
    );
    await expect(page.getByText(notAssigned.title)).toHaveCount(0);

    await page.goto("/admin");
    await expect(page).toHaveURL("/proctor");
    await page.goto(`/admin/exams/${assigned.id}`);
    await expect(page).toHaveURL("/proctor");
  });

  test("sign-out ends the session on the server, so the old cookie no longer opens /admin", async ({
    page,
    context,
    browser,
    createStaff,
    signIn,
  }) => {
    const admin = await createStaff("admin");
    await signIn(context, admin);
    await page.goto("/admin");
    await expect(page.getByRole("heading", { level: 1, name: "Exams" })).toBeVisible();
    const oldCookie = (await context.cookies()).find((cookie) => cookie.name === "holdfast_staff");
    expect(oldCookie).toBeDefined();

    await page.getByRole("button", { name: "Sign out" }).click();

    await expect(page).toHaveURL("/signin");
    await expect(page.getByRole("heading", { level: 1, name: "Staff sign-in" })).toBeVisible();
    const replay = await browser.newContext();
    try {
      await replay.addCookies(oldCookie ? [oldCookie] : []);
      const replayPage = await replay.newPage();
      await replayPage.goto("/admin");
      await expect(replayPage).toHaveURL("/signin?next=%2Fadmin");
    } finally {
      await replay.close();
    }
  });

  test("signing in returns to the page that asked for it, but never to another site", async ({
    page,
    createStaff,
    createExam,
  }) => {
    const admin = await createStaff("admin");
    const exam = await createExam();

    await page.goto(`/admin/exams/${exam.id}`);
    await expect(page).toHaveURL(`/signin?next=${encodeURIComponent(`/admin/exams/${exam.id}`)}`);
    await signInThroughTheForm(page, admin);
    await expect(page).toHaveURL(`/admin/exams/${exam.id}`);

    // A page below the exam's layout (which checks the session too): the way back is that page, with its query.
    await page.context().clearCookies();
    const results = `/admin/exams/${exam.id}/results?from=sign-in`;
    await page.goto(results);
    await expect(page).toHaveURL(`/signin?next=${encodeURIComponent(results)}`);
    await signInThroughTheForm(page, admin);
    await expect(page).toHaveURL(results);

    await page.context().clearCookies();
    await page.goto(`/signin?next=${encodeURIComponent("https://attacker.example/admin")}`);
    await signInThroughTheForm(page, admin);
    await expect(page).toHaveURL("/admin");
  });

  test("an exam's pages: a grader reaches the grading of an exam assigned to them and nothing else of it", async ({
    page,
    createStaff,
    createExam,
    signIn,
    adminApi,
  }) => {
    const grader = await createStaff("grader");
    const assigned = await createExam();
    const other = await createExam();
    const assign = await adminApi.put(`/api/admin/exams/${assigned.id}/graders/${grader.id}`);
    expect(assign.status(), await assign.text()).toBe(204);
    await signIn(page.context(), grader);

    await page.goto(`/admin/exams/${assigned.id}/grading`);
    await expect(page).toHaveURL(`/admin/exams/${assigned.id}/grading`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // The exam's admin pages send a grader home, and so does the grading of an exam not theirs.
    await page.goto(`/admin/exams/${assigned.id}/results`);
    await expect(page).toHaveURL("/grading");
    await page.goto(`/admin/exams/${other.id}/grading`);
    await expect(page).toHaveURL("/grading");
    // An exam that does not exist is not found, after the session check.
    await page.goto(`/admin/exams/00000000-0000-4000-8000-000000000000/grading`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe("/grading");
  });

  test("after repeated wrong passwords the form says, in words, how long to wait", async ({ page, createStaff }) => {
    const admin = await createStaff("admin");
    // Spend the free failures (5 by default) and two doubling waits through the API, honouring each
    // Retry-After, so the next try from this address must wait about 4 s: long enough for the form to ask.
    let failures = 0;
    while (failures < 7) {
      const response = await page.request.post("/api/staff/session", {
        data: { email: admin.email, password: "not the password" },
      });
      if (response.status() === 401) {
        failures += 1;
        continue;
      }
      expect(response.status()).toBe(429);
      await page.waitForTimeout(Number(response.headers()["retry-after"]) * 1000 + 100);
    }

    await page.goto("/signin");
    await signInThroughTheForm(page, admin);

    await expect(page.locator("#signin-error")).toHaveText(
      /^Too many failed sign-ins\. Try again in [1-4] seconds?\.$/,
    );
    await expect(page).toHaveURL("/signin");
  });
});
