import type { Page } from "@playwright/test";

import { expect, test } from "../fixtures";

import { expectReady, expectSaved, openExam, question, serverAnswers } from "./exam-page";

// After an offline reload, the page counts as waiting exactly the questions whose latest edit the server has
// not acknowledged (issue 11, defect 2): the offline reload renders the copy of the page the service worker
// kept when the exam was opened, before any answer, and that copy must not make the acknowledged answers
// pending again — not in the banner, not in the navigator, not in the heartbeat the proctor sees.

type Report = { via: "heartbeat" | "autosave"; pending: number; online: boolean };

/**
 * The device's status reports the page sends, in order: every heartbeat's body (offline they fail, but they
 * are still sent, and recorded here) and the `device` an autosave carries (ADR 022: the report rides on an
 * autosave when one is going out, and no heartbeat follows).
 */
function recordReports(page: Page): Report[] {
  const reports: Report[] = [];
  page.on("request", (request) => {
    if (request.method() !== "POST") return;
    const path = new URL(request.url()).pathname;
    if (path.endsWith("/heartbeat")) {
      const body = request.postDataJSON() as { pending: number; online: boolean };
      reports.push({ via: "heartbeat", pending: body.pending, online: body.online });
    } else if (path.endsWith("/answers")) {
      const device = (request.postDataJSON() as { device?: { pending: number; online: boolean } }).device;
      if (device) reports.push({ via: "autosave", pending: device.pending, online: device.online });
    }
  });
  return reports;
}

test.describe("A candidate who reloads the exam offline", () => {
  test("with five answers saved and two edited offline, sees two waiting — in the banner, the navigator and the heartbeat", async ({
    page,
    context,
    createExam,
    enrollCandidate,
  }) => {
    // Answers online, an offline reload and back online: more than the default 30 s on a busy machine.
    test.slow();
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    const attemptId = await openExam(page, candidate);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });

    // Every question answered online, and acknowledged.
    await question(page, 1).getByRole("radio", { name: "Network" }).check();
    await question(page, 2).getByRole("checkbox", { name: "10.0.0.0/8" }).check();
    await question(page, 3).getByLabel("Your answer").fill("ARP");
    await question(page, 4).getByLabel("Your answer").fill("Both sides agree on sequence numbers.");
    await question(page, 5).getByLabel("Your answer").fill("6");
    await expectSaved(page, [1, 2, 3, 4, 5]);

    // Offline, two of them change.
    await context.setOffline(true);
    await question(page, 3).getByLabel("Your answer").fill("ARP, edited offline");
    await question(page, 4).getByLabel("Your answer").fill("Both sides agree on sequence numbers, edited offline.");
    for (const position of [3, 4]) {
      await expect(question(page, position).getByText("On this device, waiting to send")).toBeVisible();
    }

    const reports = recordReports(page);
    await page.reload();
    await expectReady(page);
    await expect(question(page, 3).getByLabel("Your answer")).toHaveValue("ARP, edited offline");

    await expect(page.getByRole("status").filter({ hasText: "You are offline." })).toContainText(
      "2 answers are waiting to be sent.",
    );
    const questionNavigator = page.getByRole("navigation", { name: "Question navigator" });
    await expect(questionNavigator.getByRole("button", { name: /waiting to send/ })).toHaveCount(2);
    await expect(
      questionNavigator.getByRole("button", { name: "Question 3: answered, on this device, waiting to send" }),
    ).toBeVisible();
    await expect(
      questionNavigator.getByRole("button", { name: "Question 4: answered, on this device, waiting to send" }),
    ).toBeVisible();
    await expect(questionNavigator.getByRole("button", { name: /saved to server/ })).toHaveCount(3);
    for (const position of [1, 2, 5]) await expectSaved(page, [position]);

    // The heartbeat the page sent as it started (it failed: offline) says what the proctor would see.
    const heartbeats = () => reports.filter((report) => report.via === "heartbeat");
    await expect.poll(() => heartbeats().length).toBeGreaterThan(0);
    for (const beat of heartbeats()) expect(beat).toMatchObject({ pending: 2, online: false });
    const offlineReports = reports.length;

    // Back online, the two are sent and nothing waits.
    await context.setOffline(false);
    await expectSaved(page, [1, 2, 3, 4, 5]);
    await expect(questionNavigator.getByRole("button", { name: /waiting to send/ })).toHaveCount(0);
    const [q1, q2, q3, q4, q5] = exam.questionIds;
    expect(await serverAnswers(page.request, attemptId)).toEqual({
      [q1!]: "b",
      [q2!]: ["a"],
      [q3!]: "ARP, edited offline",
      [q4!]: "Both sides agree on sequence numbers, edited offline.",
      [q5!]: 6,
    });
    // The latest report back online — a heartbeat, or an autosave that carried the two — says nothing waits.
    await expect.poll(() => reports.slice(offlineReports).at(-1)).toMatchObject({ pending: 0, online: true });
  });
});
