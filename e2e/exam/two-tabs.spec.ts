import { expect, test } from "../fixtures";

import { expectSaved, openExam, question, serverAnswers, storedDraft, upgradeStoreAsNewerRelease } from "./exam-page";

test.describe("A candidate with the exam open in two tabs", () => {
  test("types in both tabs, in different questions, and loses nothing", async ({
    page: first,
    context,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    const attemptId = await openExam(first, candidate);
    const second = await context.newPage();
    await second.goto(first.url());
    await expect(question(second, 3).getByLabel("Your answer")).toBeEditable();

    await question(first, 3).getByLabel("Your answer").pressSequentially("typed in the first tab");
    await question(second, 4).getByLabel("Your answer").pressSequentially("typed in the second tab");
    await question(first, 5).getByLabel("Your answer").fill("42");
    await question(second, 1).getByRole("radio", { name: "Transport" }).check();

    for (const page of [first, second]) {
      await expectSaved(page, [1, 3, 4, 5]);
    }
    // Each tab shows what the other typed, without a reload.
    await expect(question(second, 3).getByLabel("Your answer")).toHaveValue("typed in the first tab");
    await expect(question(first, 4).getByLabel("Your answer")).toHaveValue("typed in the second tab");

    const [q1, , q3, q4, q5] = exam.questionIds;
    expect(await serverAnswers(first.request, attemptId)).toEqual({
      [q1!]: "c",
      [q3!]: "typed in the first tab",
      [q4!]: "typed in the second tab",
      [q5!]: 42,
    });
  });

  test("closes the tab that was syncing, right after typing in it: the other tab takes over and nothing is lost", async ({
    page: first,
    context,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    const attemptId = await openExam(first, candidate);
    const second = await context.newPage();
    await second.goto(first.url());
    await expect(question(second, 3).getByLabel("Your answer")).toBeEditable();

    // The first tab opened first, so it holds the sync role. Type in it and close it at once, inside the
    // 1.5 s debounce: the edit is only on the device when the syncing tab goes away. (Once it is on the
    // device, that is: `fill` returns when the key's event ran, a few milliseconds before its IndexedDB
    // transaction commits, and a tab closed in between never wrote it — kill-and-relaunch.spec.ts is that case.)
    const text = "written just before closing the tab";
    await question(first, 4).getByLabel("Your answer").fill(text);
    await expect.poll(() => storedDraft(first, attemptId, exam.questionIds[3]!)).toBe(text);
    await first.close();
    await question(second, 3).getByLabel("Your answer").fill("typed in the tab that is left");

    await expectSaved(second, [3, 4]);
    await expect(question(second, 4).getByLabel("Your answer")).toHaveValue(text);
    const [, , q3, q4] = exam.questionIds;
    expect(await serverAnswers(second.request, attemptId)).toEqual({
      [q3!]: "typed in the tab that is left",
      [q4!]: text,
    });
  });
});

test.describe("A candidate's exam tab when a newer release opens the device's store", () => {
  test("stops keeping answers, says to reload, and locks its fields; what it kept stays in the store", async ({
    page: first,
    context,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    const attemptId = await openExam(first, candidate);
    const text = "typed before the other tab upgraded";
    await question(first, 3).getByLabel("Your answer").fill(text);
    await expect.poll(() => storedDraft(first, attemptId, exam.questionIds[2]!)).toBe(text);

    // The next release's page, in another tab of the same browser, opens the store at a higher version. The
    // exam tab lets its connection go, so the upgrade is not held up.
    const second = await context.newPage();
    await second.goto("/");
    const upgradedTo = await upgradeStoreAsNewerRelease(second);
    expect(upgradedTo).toBe(1_000);

    const notice = first.getByRole("alert").filter({ hasText: "Holdfast was updated in another tab or window" });
    await expect(notice).toBeVisible();
    // The sticky bar no longer says what it said while this page was syncing.
    const bar = first.locator(".exam__bar");
    await expect(bar).toContainText("Stopped");
    await expect(bar).toContainText("reload this page to go on");
    await expect(bar).not.toContainText("every answer is on the server");
    await expect(question(first, 4).getByLabel("Your answer")).not.toBeEditable();
    for (const button of await first.getByRole("button", { name: "Review and submit" }).all()) {
      await expect(button).toBeDisabled();
    }
    expect(await storedDraft(second, attemptId, exam.questionIds[2]!)).toBe(text);

    // Reloading this same (older) page finds the store newer than it knows: the same notice, not a storage failure.
    await notice.getByRole("button", { name: "Reload this page" }).click();
    await expect(
      first.getByRole("alert").filter({ hasText: "Holdfast was updated in another tab or window" }),
    ).toBeVisible();
    await expect(first.getByText("This browser cannot keep your answers on this device")).toHaveCount(0);
    await expect(question(first, 3).getByLabel("Your answer")).not.toBeEditable();
  });
});
