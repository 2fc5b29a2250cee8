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

  test("an empty number field is not an answer, and a decimal is kept exactly", async ({
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

    await numeric.fill("0.125");
    await expectSaved(page, [5]);
    await numeric.fill("");
    await expect(question(page, 5).getByText("your last number, 0.125, is still your answer")).toBeVisible();

    expect(await serverAnswers(page.request, attemptId)).toEqual({ [exam.questionIds[4]!]: 0.125 });
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
