import { expect, test } from "../fixtures";

import { expectSaved, openExam, question, serverAnswers } from "./exam-page";

test.describe("A candidate answering the exam", () => {
  test("answers every question type, sees each saved to the server, and finds them again after a reload", async ({
    page,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    const attemptId = await openExam(page, candidate);

    await question(page, 1).getByRole("radio", { name: "Network" }).check();
    await question(page, 2).getByRole("checkbox", { name: "10.0.0.0/8" }).check();
    await question(page, 2).getByRole("checkbox", { name: "172.16.0.0/12" }).check();
    await question(page, 3).getByLabel("Your answer").fill("ARP");
    await question(page, 4).getByLabel("Your answer").fill("SYN, SYN-ACK, ACK:\nboth sides agree on sequence numbers.");
    await question(page, 5).getByLabel("Your answer").fill("-2.5");

    await expect(question(page, 3).getByText("3 of 2,000 characters")).toBeVisible();
    await expectSaved(page, [1, 2, 3, 4, 5]);
    await expect(page.getByRole("navigation", { name: "Question navigator" })).toContainText("5 of 5 answered");

    await page.reload();

    await expect(question(page, 1).getByRole("radio", { name: "Network" })).toBeChecked();
    await expect(question(page, 2).getByRole("checkbox", { name: "10.0.0.0/8" })).toBeChecked();
    await expect(question(page, 2).getByRole("checkbox", { name: "172.16.0.0/12" })).toBeChecked();
    await expect(question(page, 2).getByRole("checkbox", { name: "8.8.8.0/24" })).not.toBeChecked();
    await expect(question(page, 3).getByLabel("Your answer")).toHaveValue("ARP");
    await expect(question(page, 4).getByLabel("Your answer")).toHaveValue(
      "SYN, SYN-ACK, ACK:\nboth sides agree on sequence numbers.",
    );
    await expect(question(page, 5).getByLabel("Your answer")).toHaveValue("-2.5");
    await expectSaved(page, [1, 2, 3, 4, 5]);

    const [q1, q2, q3, q4, q5] = exam.questionIds;
    expect(await serverAnswers(page.request, attemptId)).toEqual({
      [q1!]: "b",
      [q2!]: ["a", "b"],
      [q3!]: "ARP",
      [q4!]: "SYN, SYN-ACK, ACK:\nboth sides agree on sequence numbers.",
      [q5!]: -2.5,
    });
  });

  test("an empty number field is not an answer, a decimal is kept exactly, and emptying it clears the answer", async ({
    page,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    const attemptId = await openExam(page, candidate);
    const numeric = question(page, 5).getByLabel("Your answer");

    await numeric.fill("");
    await numeric.blur();
    await expect(question(page, 5).getByText("Not answered yet")).toBeVisible();
    // Nothing to clear: nothing is sent.
    expect(await serverAnswers(page.request, attemptId)).toEqual({});

    await numeric.fill("0.125");
    await expectSaved(page, [5]);
    expect(await serverAnswers(page.request, attemptId)).toEqual({ [exam.questionIds[4]!]: 0.125 });

    // Emptied: the old number is no longer the answer (it would count under negative marking); the clearing
    // is an edit, saved like any other.
    await numeric.fill("");
    await expect(question(page, 5).getByText("Empty: this question has no answer now.")).toBeVisible();
    await expect(question(page, 5).getByText("No answer: cleared, and saved to server")).toBeVisible();
    expect(await serverAnswers(page.request, attemptId)).toEqual({ [exam.questionIds[4]!]: null });
    await page.reload();
    await expect(question(page, 5).getByLabel("Your answer")).toHaveValue("");
    const navigator = page.getByRole("navigation", { name: "Question navigator" });
    await expect(navigator.getByRole("button", { name: "Question 5: not answered" })).toBeVisible();
  });

  test("a chosen option is taken back with “Clear my answer”, offline too, and the paper submits it as no answer", async ({
    page,
    context,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    const attemptId = await openExam(page, candidate);
    const single = question(page, 1);
    await single.getByRole("radio", { name: "Network" }).check();
    await question(page, 2).getByRole("checkbox").first().check();
    await expectSaved(page, [1, 2]);

    await context.setOffline(true);
    await single.getByRole("button", { name: "Clear the answer to question 1" }).click();
    await expect(single.getByRole("radio", { name: "Network" })).not.toBeChecked();
    await expect(single.getByText("No answer: cleared on this device, waiting to send")).toBeVisible();
    // Unchecking the last box of a multiple choice clears it too.
    await question(page, 2).getByRole("checkbox").first().uncheck();
    await context.setOffline(false);
    await expect(single.getByText("No answer: cleared, and saved to server")).toBeVisible({ timeout: 15_000 });
    await expect(question(page, 2).getByText("No answer: cleared, and saved to server")).toBeVisible();
    expect(await serverAnswers(page.request, attemptId)).toEqual({
      [exam.questionIds[0]!]: null,
      [exam.questionIds[1]!]: null,
    });

    await page.getByRole("button", { name: "Review and submit" }).first().click();
    const review = page.getByRole("dialog", { name: "Review and submit" });
    await expect(review).toContainText("Not answered (5)");
  });

  test("flags a question, and the navigator and the review list show it", async ({
    page,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    await openExam(page, candidate);

    await question(page, 4).getByRole("button", { name: "Flag for review" }).click();
    // The label itself says the question is flagged (issue 11), as well as the pressed state.
    const flagged = question(page, 4).getByRole("button", { name: "Flagged for review: remove the flag" });
    await expect(flagged).toHaveAttribute("aria-pressed", "true");
    await question(page, 1).getByRole("radio", { name: "Network" }).check();

    const navigator = page.getByRole("navigation", { name: "Question navigator" });
    await expect(navigator.getByRole("button", { name: "Question 4: not answered, flagged" })).toBeVisible();
    await expect(navigator.getByRole("button", { name: /^Question 1: answered, / })).toBeVisible();

    await page.getByRole("button", { name: "Review and submit" }).first().click();
    const review = page.getByRole("dialog", { name: "Review and submit" });
    await expect(review.getByRole("region", { name: "Not answered (4)" })).toBeVisible();
    await review
      .getByRole("region", { name: "Flagged for review (1)" })
      .getByRole("button", { name: "Question 4" })
      .click();
    await expect(review).toBeHidden();
    await expect(question(page, 4).getByRole("heading", { name: "Question 4" })).toBeFocused();
  });
});
