import { expect, test } from "../fixtures";

import { expectSaved, openExam, question, serverAnswers } from "./exam-page";

test.describe("A candidate whose connection drops", () => {
  test("keeps typing offline, sees a calm banner, and everything reaches the server once back online", async ({
    page,
    context,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    const attemptId = await openExam(page, candidate);

    await question(page, 3).getByLabel("Your answer").fill("ARP");
    await expectSaved(page, [3]);

    await context.setOffline(true);
    await question(page, 3).getByLabel("Your answer").fill("ARP (Address Resolution Protocol)");
    await question(page, 4).getByLabel("Your answer").fill("Written on the train.");
    await question(page, 5).getByLabel("Your answer").fill("6");

    const banner = page.getByRole("status").filter({ hasText: "Every answer is saved on this device" });
    await expect(banner).toBeVisible();
    await expect(banner).toContainText("You are offline.");
    await expect(banner).toContainText("3 answers are waiting to be sent.");
    await expect(banner).toContainText(/Last saved to the server at \d{1,2}:\d{2}:\d{2}/);
    for (const position of [3, 4, 5]) {
      await expect(question(page, position).getByText("On this device, waiting to send")).toBeVisible();
    }

    await context.setOffline(false);

    // No further input: the engine sends on its own.
    await expectSaved(page, [3, 4, 5]);
    await expect(banner).toBeHidden();
    const [, , q3, q4, q5] = exam.questionIds;
    expect(await serverAnswers(page.request, attemptId)).toEqual({
      [q3!]: "ARP (Address Resolution Protocol)",
      [q4!]: "Written on the train.",
      [q5!]: 6,
    });
  });
});
