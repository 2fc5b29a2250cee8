import { expect, test } from "../fixtures";

const ATTEMPT_URL = /\/attempts\/[0-9a-f-]{36}$/;

test.describe("A candidate's personal join link", () => {
  test("opens the start page, and Start shows every question of the exam, ready to answer", async ({
    page,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id, { extraSeconds: 600 });

    await page.goto(candidate.joinUrl);

    await expect(page).toHaveURL(`/exam/${exam.id}`);
    await expect(page.getByRole("heading", { level: 1, name: exam.title })).toBeVisible();
    await expect(page.getByText("1 hour, plus 10 minutes extra time for you")).toBeVisible();
    await expect(page.getByRole("region", { name: "Rules" })).toContainText(exam.rules ?? "");
    await expect(page.getByText(`Signed in as ${candidate.name}`)).toBeVisible();

    await page.getByRole("button", { name: "Start" }).click();

    await expect(page).toHaveURL(ATTEMPT_URL);
    await expect(page.getByRole("heading", { level: 1, name: exam.title })).toBeVisible();
    // Times in the candidate's own zone (this browser's: UTC here), and the screen names it.
    await expect(page.getByText(/^Deadline: [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2}$/)).toBeVisible();
    await expect(page.getByText("Times in UTC")).toBeVisible();
    const questions = page.getByRole("list", { name: "Questions" }).getByRole("article");
    await expect(questions).toHaveCount(exam.questions.length);
    for (const [index, question] of exam.questions.entries()) {
      const card = questions.nth(index);
      await expect(card.getByRole("heading", { level: 2, name: `Question ${index + 1}` })).toBeVisible();
      await expect(card).toContainText(question.prompt);
    }
    const choices = page.getByRole("article", { name: "Question 2" }).getByRole("checkbox");
    await expect(choices).toHaveCount(3);
    await expect(choices.nth(0)).toHaveAccessibleName("10.0.0.0/8");
    await expect(choices.nth(1)).toHaveAccessibleName("172.16.0.0/12");
    await expect(choices.nth(2)).toHaveAccessibleName("8.8.8.0/24");
    // Candidates never see answer keys.
    await expect(page.getByText("Answer key")).toHaveCount(0);
  });

  test("opened on a second device, resumes the same attempt", async ({
    page,
    browser,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    await page.goto(candidate.joinUrl);
    await page.getByRole("button", { name: "Start" }).click();
    await expect(page).toHaveURL(ATTEMPT_URL);
    const attemptUrl = page.url();

    const laptop = await browser.newContext();
    try {
      const second = await laptop.newPage();
      await second.goto(candidate.joinUrl);
      await expect(second.getByRole("heading", { level: 1, name: exam.title })).toBeVisible();
      await expect(second.getByRole("button", { name: "Start" })).toHaveCount(0);

      await second.getByRole("button", { name: "Resume" }).click();

      await expect(second).toHaveURL(attemptUrl);
      await expect(second.getByRole("list", { name: "Questions" }).getByRole("article")).toHaveCount(
        exam.questions.length,
      );
    } finally {
      await laptop.close();
    }
  });

  test("that is not valid lands on a page that says what to do", async ({ page }) => {
    await page.goto("/join/this-is-not-anyones-join-token");

    await expect(page).toHaveURL("/join-problem?reason=invalid");
    await expect(page.getByRole("heading", { level: 1, name: "This join link does not work" })).toBeVisible();
    await expect(page.getByText(/ask your exam organiser to send you your personal link again/i)).toBeVisible();
  });

  test("of an exam that has closed says so", async ({ page, createExam, enrollCandidate }) => {
    const hour = 3600 * 1000;
    const exam = await createExam({
      opensAt: new Date(Date.now() - 3 * hour).toISOString(),
      closesAt: new Date(Date.now() - hour).toISOString(),
    });
    const candidate = await enrollCandidate(exam.id);

    await page.goto(candidate.joinUrl);

    await expect(page).toHaveURL("/join-problem?reason=closed");
    await expect(page.getByRole("heading", { level: 1, name: "This exam has closed" })).toBeVisible();
  });

  test("of an exam that is not open yet shows when it opens, and no Start button", async ({
    page,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam({ opensAt: "2099-01-01T09:00:00Z" });
    const candidate = await enrollCandidate(exam.id);

    await page.goto(candidate.joinUrl);

    await expect(page.getByRole("heading", { level: 1, name: exam.title })).toBeVisible();
    await expect(page.getByText("This exam is not open yet. It opens at Jan 1, 2099, 09:00;")).toBeVisible();
    await expect(page.getByText("Times in UTC")).toBeVisible();
    await expect(page.getByRole("button", { name: "Start" })).toHaveCount(0);
  });

  test("does not open someone else's exam page", async ({ page, browser, createExam, enrollCandidate }) => {
    const exam = await createExam();
    const alice = await enrollCandidate(exam.id);
    const bob = await enrollCandidate(exam.id);
    await page.goto(alice.joinUrl);
    await page.getByRole("button", { name: "Start" }).click();
    await expect(page).toHaveURL(ATTEMPT_URL);
    const alicesAttempt = new URL(page.url()).pathname;

    const bobsPhone = await browser.newContext();
    try {
      const bobsPage = await bobsPhone.newPage();
      await bobsPage.goto(bob.joinUrl);
      await expect(bobsPage.getByRole("button", { name: "Start" })).toBeVisible();

      const response = await bobsPage.goto(alicesAttempt);

      expect(response?.status()).toBe(404);
      await expect(bobsPage.getByRole("heading", { level: 1, name: "Open your personal join link" })).toBeVisible();
      await expect(bobsPage.getByText(exam.questions[0]?.prompt ?? "")).toHaveCount(0);
    } finally {
      await bobsPhone.close();
    }
  });

  test("is needed to see an exam's start page at all", async ({ page, createExam }) => {
    const exam = await createExam();

    const response = await page.goto(`/exam/${exam.id}`);

    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Open your personal join link" })).toBeVisible();
    await expect(page.getByText(exam.title)).toHaveCount(0);
  });
});
