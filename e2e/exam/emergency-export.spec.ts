import { readFile } from "node:fs/promises";

import { expect, test } from "../fixtures";

import { expectSaved, openExam, question } from "./exam-page";

// The deadline passes while the candidate is offline with an answer still on the device. The page offers an
// emergency file (encrypted in the browser); the candidate hands it over; an admin uploads it on the exam's
// page, and the answer is kept as a late answer (docs/sync-protocol.md, "Emergency export").

test.describe("Emergency export", () => {
  test("a candidate offline past the deadline downloads the file, an admin uploads it, the answer is kept late", async ({
    page,
    context,
    browser,
    sql,
    createExam,
    enrollCandidate,
    createStaff,
    signIn,
  }) => {
    test.setTimeout(120_000);
    // The exam closes 40 s from now, which caps the deadline: the page learns it while online.
    const exam = await createExam({ graceSeconds: 0, closesAt: new Date(Date.now() + 40_000).toISOString() });
    const candidate = await enrollCandidate(exam.id);
    const attemptId = await openExam(page, candidate);
    const [, , q3, q4] = exam.questionIds;

    await question(page, 3).getByLabel("Your answer").fill("ARP");
    await expectSaved(page, [3]);
    // The page keeps the attempt's export key on the device while it is online.
    await expect
      .poll(
        () =>
          page.evaluate(
            (id) =>
              new Promise<boolean>((resolve) => {
                const open = indexedDB.open("holdfast");
                open.onsuccess = () => {
                  const read = open.result.transaction("attempts").objectStore("attempts").get(id);
                  read.onsuccess = () => resolve(typeof read.result?.exportKey === "string");
                  read.onerror = () => resolve(false);
                };
                open.onerror = () => resolve(false);
              }),
            attemptId,
          ),
        { timeout: 15_000 },
      )
      .toBe(true);

    await context.setOffline(true);
    const offlineEssay = "Written on the train, when the deadline came.";
    await question(page, 4).getByLabel("Your answer").fill(offlineEssay);
    await expect(question(page, 4).getByText("On this device, waiting to send")).toBeVisible();

    const downloadButton = page.getByRole("button", { name: "Download emergency file" });
    await expect(downloadButton).toBeVisible({ timeout: 60_000 });
    const [download] = await Promise.all([page.waitForEvent("download"), downloadButton.click()]);
    expect(download.suggestedFilename()).toBe(`holdfast-emergency-${attemptId}.json`);
    const filePath = await download.path();
    const file = JSON.parse(await readFile(filePath, "utf8")) as Record<string, unknown>;
    expect(file).toMatchObject({ format: "holdfast-emergency-export", v: 1, attemptId });
    expect(JSON.stringify(file)).not.toContain("train");
    await expect(page.getByText("The file holds 1 answer.", { exact: false })).toBeVisible();

    // An admin, on another computer, uploads the file on the exam's page.
    const admin = await createStaff("admin");
    const staffContext = await browser.newContext();
    try {
      await signIn(staffContext, admin);
      const staffPage = await staffContext.newPage();
      await staffPage.goto(`/admin/exams/${exam.id}`);
      await staffPage.getByLabel("Emergency file", { exact: true }).setInputFiles(filePath);
      await staffPage.getByRole("button", { name: "Upload emergency file" }).click();
      // The upload's own status line (the exam page has others, e.g. its status and actions).
      const uploadStatus = staffPage.getByRole("status").filter({ hasText: /kept as late answers/ });
      await expect(uploadStatus).toContainText("1 answer was kept as late answers");

      const { rows: late } = await sql.query<{ question_id: string; value: unknown; via: string }>(
        "SELECT question_id, value, via FROM late_answers WHERE attempt_id = $1",
        [attemptId],
      );
      expect(late).toEqual([{ question_id: q4, value: offlineEssay, via: "export" }]);
      // The submitted paper is what the server held at the deadline.
      const { rows: paper } = await sql.query("SELECT question_id FROM answers WHERE attempt_id = $1", [attemptId]);
      expect(paper).toEqual([{ question_id: q3 }]);

      // The same file again changes nothing.
      await staffPage.getByRole("button", { name: "Upload emergency file" }).click();
      await expect(uploadStatus).toContainText("0 answers were kept as late answers");
      const { rows: again } = await sql.query("SELECT count(*)::int AS n FROM late_answers WHERE attempt_id = $1", [
        attemptId,
      ]);
      expect(again).toEqual([{ n: 1 }]);
    } finally {
      await staffContext.close();
    }
  });
});
