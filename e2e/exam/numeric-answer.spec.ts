import { expect, test } from "../fixtures";

import { expectSaved, openExam, question, serverAnswers } from "./exam-page";

// A numeric answer is exactly what the candidate sees (issue 11, defect 1): "20,5" was stored as 205 and shown
// as saved. The field is plain text now; a decimal comma is a decimal point, and text that is not a number is
// refused next to the field and never sent, so the server keeps what it had.

test.describe("A numeric answer", () => {
  test("typed with a decimal comma is stored as that number, and the field says how it was read", async ({
    page,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    const attemptId = await openExam(page, candidate);
    const numeric = question(page, 5).getByLabel("Your answer");
    await expect(numeric).toHaveAttribute("inputmode", "decimal");
    await expect(numeric).toHaveAttribute("type", "text");

    await numeric.pressSequentially("20,5");
    await expect(numeric).toHaveValue("20,5");
    await expect(question(page, 5).getByText("Read as 20.5.")).toBeVisible();
    await expectSaved(page, [5]);

    expect(await serverAnswers(page.request, attemptId)).toEqual({ [exam.questionIds[4]!]: 20.5 });
  });

  test("that is not a number shows why next to the field, and is not stored", async ({
    page,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    const attemptId = await openExam(page, candidate);
    const numeric = question(page, 5).getByLabel("Your answer");

    await numeric.pressSequentially("abc");
    await expect(numeric).toHaveValue("abc");
    await expect(numeric).toHaveAttribute("aria-invalid", "true");
    await expect(numeric).toHaveAccessibleDescription(/This is not a number/);
    await expect(question(page, 5).getByText("It has not been saved: this question has no answer yet.")).toBeVisible();
    await expect(question(page, 5).getByText("Not answered yet")).toBeVisible();

    // Another answer reaches the server, so the page has synced since the bad text was typed.
    await question(page, 3).getByLabel("Your answer").fill("ARP");
    await expectSaved(page, [3]);
    expect(await serverAnswers(page.request, attemptId)).toEqual({ [exam.questionIds[2]!]: "ARP" });

    // A number replaces it; then unreadable text leaves that number in place, and says so.
    await numeric.fill("6");
    await expectSaved(page, [5]);
    await numeric.fill("1,2,3");
    await expect(question(page, 5).getByText("It has not been saved: your answer is still 6.")).toBeVisible();
    await numeric.fill("1e5");
    await expect(numeric).toHaveAccessibleDescription(/without an “e”/);
    expect(await serverAnswers(page.request, attemptId)).toMatchObject({ [exam.questionIds[4]!]: 6 });
  });
});
