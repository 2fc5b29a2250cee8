import type { Page } from "@playwright/test";

import { expect, test } from "../fixtures";
import { openExam } from "../exam/exam-page";

import { candidateRow, drawer, openDashboard, startThroughApi } from "./dashboard-page";

/** "1:02:05" or "59:58" → seconds. */
async function secondsLeft(page: Page): Promise<number> {
  const text = (await page.getByRole("timer", { name: "Time left" }).textContent()) ?? "";
  return text
    .trim()
    .split(":")
    .map(Number)
    .reduce((total, part) => total * 60 + part, 0);
}

test.describe("A proctor acting from the dashboard", () => {
  test("extends one candidate's time: their countdown moves later and the drawer shows their device acknowledged it", async ({
    page,
    browser,
    createExam,
    enrollCandidate,
    createStaff,
    assignProctor,
    signIn,
  }) => {
    test.setTimeout(90_000);
    const exam = await createExam({ durationSeconds: 1800 });
    const candidate = await enrollCandidate(exam.id, { name: `Eli Extended ${Date.now() % 100_000}` });
    const proctor = await createStaff("proctor");
    await assignProctor(exam.id, proctor);

    const candidateContext = await browser.newContext();
    const candidatePage = await candidateContext.newPage();
    await openExam(candidatePage, candidate);
    const before = await secondsLeft(candidatePage);
    // The countdown rounds up (0:01 until time is really up), and the page's estimate of the server clock
    // is good to some milliseconds: right after the start it may read 30:01.
    expect(before).toBeLessThanOrEqual(1801);

    await signIn(page.context(), proctor);
    await openDashboard(page, exam.id);
    await candidateRow(page, candidate.name).click();
    const details = drawer(page, candidate.name);
    await expect(details).toContainText("No extra time given.");
    await details.getByRole("button", { name: "Extend time" }).click();

    const dialog = page.getByRole("dialog", { name: `Extend time for ${candidate.name}` });
    // The reason is required; the dialog says so beside the field, and puts focus there, instead of sending.
    await dialog.getByRole("button", { name: "Extend", exact: true }).click();
    await expect(dialog.getByLabel("Reason")).toBeFocused();
    await expect(dialog.getByLabel("Reason")).toHaveAccessibleDescription(/^Give a reason/);
    await dialog.getByLabel("10 min").check();
    await dialog.getByLabel("Reason").fill("Fire alarm in room 2");
    await dialog.getByRole("button", { name: "Extend", exact: true }).click();
    await expect(dialog.getByRole("status")).toContainText("Time extended by 10 min");
    await dialog.getByRole("button", { name: "Close" }).click();

    // The candidate's countdown moves about ten minutes later without a reload.
    await expect.poll(() => secondsLeft(candidatePage), { timeout: 15_000 }).toBeGreaterThan(before + 9 * 60);
    // The reason is a sentence of its own, and so is the new deadline.
    await expect(details).toContainText(/“Fire alarm in room 2”\.New deadline \d{2}:\d{2}(:\d{2})?\./);
    await expect(details).toContainText(/Acknowledged by the candidate's device at \d{2}:\d{2}:\d{2}/, {
      timeout: 20_000,
    });
    // The timeline's English lines for scripts (the API's `text`) are the drawer's words: the server formats
    // the same precompiled catalog.
    await expect(details).toContainText("Started the attempt.");
    const timeline = await page.request.get(`/api/proctor/exams/${exam.id}/candidates/${candidate.id}/timeline`);
    expect(timeline.status(), await timeline.text()).toBe(200);
    const { entries } = (await timeline.json()) as { entries: { kind: string; text: string }[] };
    expect(entries.map((entry) => entry.text)).toEqual(
      expect.arrayContaining(["Enrolled.", "Started the attempt.", `+10 min by ${proctor.name}: Fire alarm in room 2`]),
    );
    await candidateContext.close();
  });

  test("force-submits a candidate: the confirmation says what happens, and their page ends on its submitted screen", async ({
    page,
    browser,
    createExam,
    enrollCandidate,
    createStaff,
    assignProctor,
    signIn,
  }) => {
    test.setTimeout(90_000);
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id, { name: `Fay Forced ${Date.now() % 100_000}` });
    const proctor = await createStaff("proctor");
    await assignProctor(exam.id, proctor);

    const candidateContext = await browser.newContext();
    const candidatePage = await candidateContext.newPage();
    await openExam(candidatePage, candidate);

    await signIn(page.context(), proctor);
    await openDashboard(page, exam.id);
    await candidateRow(page, candidate.name).click();
    await drawer(page, candidate.name).getByRole("button", { name: "Force submit" }).click();
    const dialog = page.getByRole("dialog", { name: `Force submit for ${candidate.name}` });
    await expect(dialog).toContainText("cannot be undone");
    await dialog.getByRole("button", { name: "Force submit now" }).click();
    await expect(dialog.getByRole("status")).toContainText(/Submitted at \d{2}:\d{2}:\d{2}/);
    await dialog.getByRole("button", { name: "Close" }).click();

    await expect(candidatePage.getByRole("heading", { name: "Your answers were submitted" })).toBeVisible({
      timeout: 15_000,
    });
    await expect(candidateRow(page, candidate.name)).toContainText("Submitted");
    await candidateContext.close();
  });

  test("extends time for a selection of two candidates and reads the per-outcome counts", async ({
    page,
    server,
    createExam,
    enrollCandidate,
    createStaff,
    assignProctor,
    signIn,
  }) => {
    const exam = await createExam();
    const tag = Date.now() % 100_000;
    const first = await enrollCandidate(exam.id, { name: `Bo Bulk ${tag}` });
    const second = await enrollCandidate(exam.id, { name: `Cy Bulk ${tag}` });
    const untouched = await enrollCandidate(exam.id, { name: `Di Left ${tag}` });
    const started = await startThroughApi(server.baseURL, exam.id, first);
    const proctor = await createStaff("proctor");
    await assignProctor(exam.id, proctor);

    await signIn(page.context(), proctor);
    await openDashboard(page, exam.id);
    await expect(page.getByRole("button", { name: "Extend time for selected candidates" })).toBeDisabled();
    await page.getByLabel(`Select ${first.name}`).check();
    await page.getByLabel(`Select ${second.name}`).check();
    await page.getByRole("button", { name: "Extend time for 2 candidates" }).click();

    const dialog = page.getByRole("dialog", { name: "Extend time for 2 candidates" });
    await dialog.getByLabel("Custom").check();
    await dialog.getByLabel("Minutes").fill("7");
    await dialog.getByLabel("Reason").fill("Late start in room 4");
    await dialog.getByRole("button", { name: "Extend", exact: true }).click();
    const outcome = dialog.getByRole("status");
    await expect(outcome).toContainText("Done for 2 candidates");
    await expect(outcome).toContainText("Extended: 1");
    await expect(outcome).toContainText("Not started yet: the time counts when they start: 1");
    await dialog.getByRole("button", { name: "Close" }).click();
    // Done: the selection is cleared, so a second click cannot extend the same people by accident.
    await expect(page.getByRole("button", { name: "Extend time for selected candidates" })).toBeDisabled();

    await candidateRow(page, first.name).click();
    await expect(drawer(page, first.name)).toContainText("+7 min");
    await expect(drawer(page, first.name)).toContainText("Late start in room 4");
    await expect(candidateRow(page, untouched.name)).toBeVisible();
    await started.request.dispose();
  });
});
