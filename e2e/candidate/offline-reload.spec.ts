import { join } from "node:path";
import { fileURLToPath } from "node:url";

import type { Page } from "@playwright/test";

import { missingForOffline } from "../exam/exam-page";
import { expect, test, type CreatedExam } from "../fixtures";

// A candidate on a bad connection reloads the exam page: the service worker (public/sw.js) serves the copy
// it kept, with its scripts, so the page comes back and the sync engine can restore the answers from
// IndexedDB. The exam page itself is being rebuilt; these tests rely only on its title and question prompts.

const ATTEMPT_URL = /\/attempts\/[0-9a-f-]{36}$/;
const OFFLINE_PAGE_HEADING = "This page needs a connection the first time";
const SCREENSHOTS = fileURLToPath(new URL("../.artifacts/screenshots/", import.meta.url));

async function expectExamPage(page: Page, exam: CreatedExam) {
  await expect(page.getByRole("heading", { level: 1, name: exam.title })).toBeVisible();
  for (const question of exam.questions) await expect(page.getByText(question.prompt)).toBeVisible();
}

/** The review dialog comes in a chunk of its own, loaded after the page: the worker must have kept it too. */
async function expectReviewOpens(page: Page) {
  await page.getByRole("button", { name: "Review and submit" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Review and submit" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Back to the exam" }).click();
  await expect(dialog).toBeHidden();
}

/**
 * Two candidates of one exam on one computer: Alice starts, and the worker keeps her exam page for an offline
 * reload. Bob's join link comes next.
 */
async function aliceStartsOnASharedComputer(
  page: Page,
  createExam: () => Promise<CreatedExam>,
  enrollCandidate: (examId: string) => Promise<{ joinUrl: string; name: string }>,
) {
  const exam = await createExam();
  const alice = await enrollCandidate(exam.id);
  const bob = await enrollCandidate(exam.id);
  await page.goto(alice.joinUrl);
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page).toHaveURL(ATTEMPT_URL);
  const alicesAttempt = new URL(page.url()).pathname;
  await expect.poll(() => missingForOffline(page)).toEqual([]);
  return { exam, bob, alicesAttempt };
}

/** Offline, Alice's attempt opens the offline page: the device kept no copy of her exam. */
async function expectNoCopyOfAlicesExam(page: Page, exam: CreatedExam, alicesAttempt: string) {
  await page.context().setOffline(true);
  await page.goto(alicesAttempt);
  await expect(page.getByRole("heading", { level: 1, name: OFFLINE_PAGE_HEADING })).toBeVisible();
  await expect(page.getByText(exam.questions[0]?.prompt ?? "")).toHaveCount(0);
}

test.describe("A candidate who loses the connection", () => {
  test("reloads the exam page offline and gets it back", async ({ page, context, createExam, enrollCandidate }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    await page.goto(candidate.joinUrl);
    await page.getByRole("button", { name: "Start" }).click();
    await expect(page).toHaveURL(ATTEMPT_URL);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // Online, this reload goes through the worker, which keeps the page and its assets.
    await page.reload();
    await expectExamPage(page, exam);
    await expect.poll(() => missingForOffline(page)).toEqual([]);

    await context.setOffline(true);
    await page.reload();

    await expectExamPage(page, exam);
    await expect(page.getByRole("heading", { name: OFFLINE_PAGE_HEADING })).toHaveCount(0);
    await expectReviewOpens(page);
    await page.screenshot({ path: join(SCREENSHOTS, "desktop-candidate-exam-offline-reload.png"), fullPage: true });
  });

  test("right after the first visit can already reload offline", async ({
    page,
    context,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    // The start page loads before the worker exists, and Start reaches the exam page client-side: the worker
    // never saw either load, so the page tells it what to keep.
    await page.goto(candidate.joinUrl);
    await page.getByRole("button", { name: "Start" }).click();
    await expect(page).toHaveURL(ATTEMPT_URL);
    await expectExamPage(page, exam);
    await expect.poll(() => missingForOffline(page)).toEqual([]);

    await context.setOffline(true);
    await page.reload();

    await expectExamPage(page, exam);
    await expectReviewOpens(page);
  });

  test("opening a page never visited on this device shows a calm offline page", async ({
    page,
    context,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    await page.goto(candidate.joinUrl);
    await expect(page.getByRole("heading", { level: 1, name: exam.title })).toBeVisible();
    await expect.poll(() => missingForOffline(page)).toEqual([]);

    await context.setOffline(true);
    await page.goto(`/exam/${exam.id}/check`);

    await expect(page.getByRole("heading", { level: 1, name: OFFLINE_PAGE_HEADING })).toBeVisible();
    await expect(
      page.getByText("Pages you have already opened here, such as your exam, still open without a connection."),
    ).toBeVisible();

    // The start page was opened before, so it still opens.
    await page.goto(`/exam/${exam.id}`);
    await expect(page.getByRole("heading", { level: 1, name: exam.title })).toBeVisible();
  });

  test("following a link offline lands on the offline page rather than hanging", async ({
    page,
    context,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    await page.goto(candidate.joinUrl);
    await expect.poll(() => missingForOffline(page)).toEqual([]);

    await context.setOffline(true);
    // A client-side navigation: its RSC request fails, and Next.js falls back to loading the page itself.
    await page.getByRole("link", { name: "Check this device" }).click();

    await expect(page).toHaveURL(`/exam/${exam.id}/check`);
    await expect(page.getByRole("heading", { level: 1, name: OFFLINE_PAGE_HEADING })).toBeVisible();
  });

  test("on a shared computer, keeps no copy of the previous candidate's exam once another joins", async ({
    page,
    createExam,
    enrollCandidate,
  }) => {
    const { exam, bob, alicesAttempt } = await aliceStartsOnASharedComputer(page, createExam, enrollCandidate);

    await page.goto(bob.joinUrl);
    await expect(page.getByText(`Signed in as ${bob.name}`)).toBeVisible();
    await expect
      .poll(() =>
        page.evaluate(async (path) => (await caches.match(path, { ignoreVary: true })) !== undefined, alicesAttempt),
      )
      .toBe(false);

    await expectNoCopyOfAlicesExam(page, exam, alicesAttempt);
  });

  test("on a shared computer, a copy of the previous candidate's exam that arrives after the next one joins is not kept", async ({
    page,
    context,
    createExam,
    enrollCandidate,
  }) => {
    const { exam, bob, alicesAttempt } = await aliceStartsOnASharedComputer(page, createExam, enrollCandidate);

    // Alice's page asks the worker to keep it again (as it does when her language or time zone changes), and
    // the answer — made for her cookie — is held back until Bob's join link has been opened in the same tab.
    let release!: () => void;
    const bobJoined = new Promise<void>((resolve) => (release = resolve));
    let heldBack = 0;
    await context.route(`**${alicesAttempt}`, async (route) => {
      if (route.request().isNavigationRequest()) return route.continue();
      const response = await route.fetch();
      heldBack += 1;
      await bobJoined;
      await route.fulfill({ response });
    });
    await page.evaluate(() => {
      navigator.serviceWorker.controller?.postMessage({
        type: "holdfast:keep",
        page: location.href,
        assets: [],
        language: document.documentElement.lang,
      });
    });
    // The page may ask too (once it learns the candidate's time zone): every copy asked for is held alike.
    await expect.poll(() => heldBack).toBeGreaterThanOrEqual(1);

    await page.goto(bob.joinUrl);
    await expect(page.getByText(`Signed in as ${bob.name}`)).toBeVisible();
    release();
    // The held answer has reached the worker by the time its route is removed.
    await context.unrouteAll({ behavior: "wait" });
    await page.waitForTimeout(500);
    expect(
      await page.evaluate(
        async (path) => (await caches.match(path, { ignoreVary: true })) !== undefined,
        alicesAttempt,
      ),
    ).toBe(false);

    await expectNoCopyOfAlicesExam(page, exam, alicesAttempt);
  });
});
