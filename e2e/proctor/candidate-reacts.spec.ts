import { fileURLToPath } from "node:url";

import type { Page } from "@playwright/test";

import { expect, test } from "../fixtures";
import { openExam, question, expectSaved } from "../exam/exam-page";

// A proctor acts through the API (the admin bearer token, as a script or the dashboard would); the candidate's
// page in Chromium reacts at once, through its presence stream: every wait below is shorter than the 15 s
// between the page's heartbeats, which would bring the same news later. docs/sync-protocol.md, "Proctor actions".

/** For a person to look at (not committed), like the exam page's screenshots. */
const SCREENSHOT = fileURLToPath(new URL("../.artifacts/screenshots/desktop-exam-extended.png", import.meta.url));

/** "1:02:05" or "59:30" → seconds. */
function seconds(clock: string): number {
  return clock
    .trim()
    .split(":")
    .reduce((total, part) => total * 60 + Number(part), 0);
}

async function timeLeft(page: Page): Promise<number> {
  return seconds((await page.getByRole("timer", { name: "Time left" }).textContent()) ?? "");
}

test.describe("The candidate's page reacts to a proctor", () => {
  test("extra time: the countdown moves later, says so calmly, and the device acknowledges the new deadline", async ({
    page,
    adminApi,
    sql,
    createExam,
    enrollCandidate,
  }) => {
    test.setTimeout(90_000);
    const exam = await createExam({ durationSeconds: 1800 });
    const candidate = await enrollCandidate(exam.id);
    const attemptId = await openExam(page, candidate);
    await expect.poll(() => timeLeft(page)).toBeGreaterThan(0);
    const before = await timeLeft(page);

    const response = await adminApi.post(`/api/proctor/attempts/${attemptId}/extend`, {
      data: { seconds: 600, reason: "Fire alarm in building B" },
      headers: { "Idempotency-Key": `extend-${attemptId}` },
    });
    expect(response.status(), await response.text()).toBe(200);
    const extension = (await response.json()) as { extensionId: string; deadline: string; previousDeadline: string };
    expect(Date.parse(extension.deadline) - Date.parse(extension.previousDeadline)).toBe(600_000);

    // Within 10 s, before the page's next 15 s heartbeat: the presence stream brought it.
    await expect(page.getByText("Your proctor gave you 10 more minutes.")).toBeVisible({ timeout: 10_000 });
    expect(await timeLeft(page)).toBeGreaterThan(before + 540);
    await page.screenshot({ path: SCREENSHOT });

    // The heartbeat that carries the new deadline is the acknowledgement the dashboard shows.
    await expect
      .poll(
        async () => {
          const { rows } = await sql.query<{ acknowledged: boolean; device: string | null }>(
            "SELECT acknowledged_at IS NOT NULL AS acknowledged, acknowledged_device_id AS device FROM time_extensions WHERE id = $1",
            [extension.extensionId],
          );
          return rows[0]?.acknowledged ?? false;
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    const { rows } = await sql.query<{ deadline_seen: Date }>(
      "SELECT deadline_seen FROM device_heartbeats WHERE attempt_id = $1 ORDER BY received_at DESC LIMIT 1",
      [attemptId],
    );
    expect(rows[0]!.deadline_seen.toISOString()).toBe(extension.deadline);
    // …and the dashboard's snapshot shows it.
    const snapshot = await adminApi.get(`/api/proctor/exams/${exam.id}/candidates`);
    expect(snapshot.status()).toBe(200);
    const { candidates } = (await snapshot.json()) as {
      candidates: {
        attemptId: string | null;
        deadline: number | null;
        lastExtension: { extensionId: string; acknowledgedAt: number | null } | null;
      }[];
    };
    const facts = candidates.find((candidate) => candidate.attemptId === attemptId);
    expect(facts?.deadline).toBe(Date.parse(extension.deadline));
    expect(facts?.lastExtension).toMatchObject({
      extensionId: extension.extensionId,
      acknowledgedAt: expect.any(Number),
    });

    // The page keeps working: an answer after the extension is saved as usual.
    await question(page, 3).getByLabel("Your answer").fill("ARP");
    await expectSaved(page, [3]);
  });

  test("force-submit: the candidate's page ends on its submitted screen, with what the server held", async ({
    page,
    adminApi,
    sql,
    createExam,
    enrollCandidate,
  }) => {
    test.setTimeout(90_000);
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    const attemptId = await openExam(page, candidate);
    await question(page, 3).getByLabel("Your answer").fill("ARP");
    await expectSaved(page, [3]);

    const response = await adminApi.post(`/api/proctor/attempts/${attemptId}/force-submit`, {
      data: { reason: "Candidate left the room" },
    });
    expect(response.status(), await response.text()).toBe(200);
    const submission = (await response.json()) as { submissionId: string; source: string; alreadySubmitted: boolean };
    expect(submission).toMatchObject({ source: "proctor", alreadySubmitted: false });

    await expect(page.getByRole("heading", { name: "Your answers were submitted" })).toBeVisible({ timeout: 10_000 });
    await expect(page.getByText(submission.submissionId)).toBeVisible();
    await expect(question(page, 3)).toHaveCount(0);

    // Idempotent: a second force-submit answers with the same submission.
    const again = await adminApi.post(`/api/proctor/attempts/${attemptId}/force-submit`);
    expect(again.status()).toBe(200);
    expect(await again.json()).toMatchObject({ submissionId: submission.submissionId, alreadySubmitted: true });
    const { rows } = await sql.query("SELECT id FROM submissions WHERE attempt_id = $1", [attemptId]);
    expect(rows).toHaveLength(1);
  });
});
