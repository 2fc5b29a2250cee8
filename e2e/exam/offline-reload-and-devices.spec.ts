import { expect, test } from "../fixtures";

import { expectReady, expectSaved, openExam, question, serverAnswers } from "./exam-page";

test.describe("Answers survive the worst of a bad connection", () => {
  test("type, go offline, type more, reload offline: every answer is on screen, and reaches the server once back online", async ({
    page,
    context,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    const attemptId = await openExam(page, candidate);
    // The offline reload needs the service worker in control of this page.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });

    await question(page, 3).getByLabel("Your answer").fill("ARP");
    await expectSaved(page, [3]);

    await context.setOffline(true);
    await question(page, 3).getByLabel("Your answer").fill("ARP, typed again offline");
    await question(page, 4).getByLabel("Your answer").fill("An essay written with no connection.");
    await question(page, 5).getByLabel("Your answer").fill("6");
    for (const position of [3, 4, 5]) {
      await expect(question(page, position).getByText("On this device, waiting to send")).toBeVisible();
    }

    await page.reload();
    await expectReady(page);
    await expect(question(page, 3).getByLabel("Your answer")).toHaveValue("ARP, typed again offline");
    await expect(question(page, 4).getByLabel("Your answer")).toHaveValue("An essay written with no connection.");
    await expect(question(page, 5).getByLabel("Your answer")).toHaveValue("6");

    await context.setOffline(false);
    // No further input: the page sends what waited on the device.
    await expectSaved(page, [3, 4, 5]);
    const [, , q3, q4, q5] = exam.questionIds;
    expect(await serverAnswers(page.request, attemptId)).toEqual({
      [q3!]: "ARP, typed again offline",
      [q4!]: "An essay written with no connection.",
      [q5!]: 6,
    });
  });

  test("two devices, one offline for a while, converge on the newest edit per question, on both screens and the server", async ({
    browser,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    const laptopContext = await browser.newContext();
    const phoneContext = await browser.newContext();
    try {
      const laptop = await laptopContext.newPage();
      const phone = await phoneContext.newPage();
      const attemptId = await openExam(laptop, candidate);
      await openExam(phone, candidate);

      // Both start from the same synced paper.
      await question(laptop, 3).getByLabel("Your answer").fill("first, on the laptop");
      await expectSaved(laptop, [3]);
      await phone.reload();
      await expectReady(phone);
      await expect(question(phone, 3).getByLabel("Your answer")).toHaveValue("first, on the laptop");

      // The phone goes offline and keeps working; meanwhile the laptop edits too.
      await phoneContext.setOffline(true);
      await question(phone, 3).getByLabel("Your answer").fill("offline on the phone");
      await question(phone, 4).getByLabel("Your answer").fill("The phone's essay, written offline.");
      await question(laptop, 5).getByLabel("Your answer").fill("6");
      await expectSaved(laptop, [5]);
      // Made after the phone's offline edit of question 3, and after the laptop saw the server's clock.
      await question(laptop, 3).getByLabel("Your answer").fill("later, on the laptop");
      await expectSaved(laptop, [3]);

      // The phone comes back and sends its offline edits. Its question 3 carries version 2 (its clock was
      // 1 after the reload); the laptop's later edit carries version 3 (after 1 and 2 of its own), so the
      // laptop's wins by the contract's (version, deviceId) rule and the phone adopts it.
      await phoneContext.setOffline(false);
      await expect(question(phone, 4).getByText("Saved to server", { exact: true })).toBeVisible();
      await expect(question(phone, 3).getByText("On this device, waiting to send")).toHaveCount(0);

      const server = await serverAnswers(laptop.request, attemptId);
      const [, , q3, q4, q5] = exam.questionIds;
      expect(server[q4!]).toBe("The phone's essay, written offline.");
      expect(server[q5!]).toBe(6);
      expect(server[q3!]).toBe("later, on the laptop");

      // Both screens end on exactly what the server holds.
      for (const device of [laptop, phone]) {
        await device.reload();
        await expectReady(device);
        await expect(question(device, 3).getByLabel("Your answer")).toHaveValue(server[q3!] as string);
        await expect(question(device, 4).getByLabel("Your answer")).toHaveValue("The phone's essay, written offline.");
        await expect(question(device, 5).getByLabel("Your answer")).toHaveValue("6");
      }
    } finally {
      await laptopContext.close();
      await phoneContext.close();
    }
  });
});
