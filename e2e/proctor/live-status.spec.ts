import { expect, test } from "../fixtures";
import { expectSaved, openExam, question } from "../exam/exam-page";

import { candidateRow, openDashboard } from "./dashboard-page";

test.describe("A proctor watching the live dashboard", () => {
  test("sees a candidate who drops offline turn Offline within seconds, At risk after 30 s, and Online and Synced once back", async ({
    page,
    browser,
    createExam,
    enrollCandidate,
    createStaff,
    assignProctor,
    signIn,
  }) => {
    test.setTimeout(150_000);
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id, { name: `Olu Offline ${Date.now() % 100_000}` });
    const proctor = await createStaff("proctor");
    await assignProctor(exam.id, proctor);
    await signIn(page.context(), proctor);
    await openDashboard(page, exam.id);
    const row = candidateRow(page, candidate.name);
    await expect(row).toContainText("Not started");

    // The candidate, in their own browser, starts and answers.
    const candidateContext = await browser.newContext();
    const candidatePage = await candidateContext.newPage();
    await openExam(candidatePage, candidate);
    await question(candidatePage, 3).getByLabel("Your answer").fill("ARP");
    await expectSaved(candidatePage, [3]);
    await expect(row).toContainText("Online");
    await expect(row).toContainText("Synced");
    await expect(row).toContainText("In progress");

    // The connection drops; they keep typing, and the work waits on their device.
    await candidateContext.setOffline(true);
    await question(candidatePage, 4).getByLabel("Your answer").fill("Written while the train was in the tunnel.");
    await expect(row).toContainText(/Offline \d+ s/, { timeout: 8_000 });
    // The server cannot know what was typed offline, so it does not claim "Synced".
    await expect(row).toContainText("Possibly pending");
    const counters = page.getByRole("group", { name: "Filter by status" });
    await expect(counters.getByRole("button", { name: /Offline/ })).toContainText("1");

    // Quiet for the at-risk threshold (30 s): flagged, with the reason in words.
    await expect(row).toContainText("At risk", { timeout: 45_000 });
    await expect(row).toContainText(/only on the device|unsynced/);
    // The At risk counter filters the table to them.
    await counters.getByRole("button", { name: /At risk/ }).click();
    await expect(counters.getByRole("button", { name: /At risk/ })).toHaveAttribute("aria-pressed", "true");
    await expect(candidateRow(page, candidate.name)).toBeVisible();
    await counters.getByRole("button", { name: /At risk/ }).click();

    // Back online: the pending edit reaches the server and the row settles.
    await candidateContext.setOffline(false);
    await expectSaved(candidatePage, [4]);
    await expect(row).toContainText("Online", { timeout: 10_000 });
    await expect(row).toContainText("Synced", { timeout: 10_000 });
    await expect(row).not.toContainText("At risk");
    await expect(row).toContainText("2/5");
    await candidateContext.close();
  });
});
