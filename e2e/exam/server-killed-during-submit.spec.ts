import type { Page } from "@playwright/test";

import { expect, test } from "../fixtures";

import { expectSaved, openExam, question } from "./exam-page";
import { launchSecondServer, type SecondServer } from "./second-server";

// The candidate works against a second app instance (same build, database, Redis and secrets as the suite's
// server), which this spec kills with SIGKILL while the submit is on its way and then starts again on the
// same port. The suite's own server stays up for every other spec.

// The page's service worker is not under test here, and requests it handles would pass by page.route.
test.use({ serviceWorkers: "block" });

let instance: SecondServer | undefined;

test.beforeAll(async ({ server }) => {
  instance = await launchSecondServer(server.databaseUrl);
});

test.afterAll(async () => {
  await instance?.stop();
});

const receiptHeading = (page: Page) => page.getByRole("heading", { name: "Your answers were submitted" });

test.describe("A server killed during a submit", () => {
  test("is restarted; the page keeps submitting with the same key and body and ends on the receipt, with one submission", async ({
    page,
    sql,
    createExam,
    enrollCandidate,
  }) => {
    test.setTimeout(120_000);
    const server = instance!;
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    // Join tokens are derived from APP_SECRET, which both instances share: the link works on this one too.
    const attemptId = await openExam(page, { ...candidate, joinUrl: `${server.baseURL}/join/${candidate.joinToken}` });
    expect(new URL(page.url()).origin).toBe(server.baseURL);

    await question(page, 3).getByLabel("Your answer").fill("ARP");
    await expectSaved(page, [3]);

    // Every submit the page sends is recorded; the first is held until the server is dead.
    const submits: { key: string; body: string }[] = [];
    let releaseFirst = () => {};
    const firstReleased = new Promise<void>((resolve) => (releaseFirst = resolve));
    await page.route(`**/api/attempts/${attemptId}/submit`, async (route) => {
      const request = route.request();
      submits.push({ key: request.headers()["idempotency-key"] ?? "", body: request.postData() ?? "" });
      if (submits.length === 1) await firstReleased;
      await route.continue();
    });

    // Typed just before submitting: it travels in the submit's final delta unless an autosave got there first.
    await question(page, 5).getByLabel("Your answer").fill("6");
    await page.getByRole("button", { name: "Review and submit" }).first().click();
    const review = page.getByRole("dialog", { name: "Review and submit" });
    await review.getByRole("button", { name: "Submit now" }).click();
    await expect.poll(() => submits.length).toBe(1);

    await server.kill();
    releaseFirst();

    // The request died with the server: the page says it is still submitting, calmly, and keeps trying.
    await expect.poll(() => submits.length, { timeout: 15_000 }).toBeGreaterThan(1);
    await expect(page.getByRole("heading", { name: "Submitting…" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Submitting…" }).first()).toBeDisabled();
    await expect(page.getByText("The server did not accept the submission")).toHaveCount(0);
    await expect(question(page, 5).getByLabel("Your answer")).not.toBeEditable();
    const { rows: during } = await sql.query("SELECT id FROM submissions WHERE attempt_id = $1", [attemptId]);
    expect(during).toHaveLength(0);

    await server.start();

    // No further input: a retry reaches the restarted server.
    await expect(receiptHeading(page)).toBeVisible({ timeout: 60_000 });
    const { rows } = await sql.query<{ id: string; digest: string; source: string; idempotency_key: string }>(
      "SELECT id, digest, source, idempotency_key FROM submissions WHERE attempt_id = $1",
      [attemptId],
    );
    expect(rows).toHaveLength(1);
    const [submission] = rows;
    expect(submission!.source).toBe("candidate");
    await expect(page.getByText(submission!.digest)).toBeVisible();
    await expect(page.getByText(submission!.id)).toBeVisible();
    await expect(page.getByText("differs from what this device holds")).toHaveCount(0);

    // Every attempt carried the key and the exact bytes stored at the first click.
    expect(submits.length).toBeGreaterThan(1);
    expect(new Set(submits.map((submit) => submit.key))).toEqual(new Set([submission!.idempotency_key]));
    expect(new Set(submits.map((submit) => submit.body)).size).toBe(1);
    expect(JSON.parse(submits[0]!.body)).toMatchObject({
      deviceId: expect.any(String),
      answers: expect.any(Array),
      digest: submission!.digest,
    });

    const { rows: answers } = await sql.query<{ question_id: string; value: unknown }>(
      "SELECT question_id, value FROM answers WHERE attempt_id = $1",
      [attemptId],
    );
    const [, , q3, , q5] = exam.questionIds;
    expect(Object.fromEntries(answers.map((answer) => [answer.question_id, answer.value]))).toEqual({
      [q3!]: "ARP",
      [q5!]: 6,
    });
  });
});
