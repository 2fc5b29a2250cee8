import { expect, test } from "../fixtures";

import { expectSaved, openExam, question, serverAnswers } from "./exam-page";

test.describe("A candidate on two devices", () => {
  test("sees each device's edits on the other after a reload, and the last edit per question wins everywhere", async ({
    page: laptop,
    browser,
    createExam,
    enrollCandidate,
  }) => {
    // Two browser contexts, two joins and three reloads: ~15 s on a quiet box, past 30 s when it is busy.
    test.slow();
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    const attemptId = await openExam(laptop, candidate);

    const phoneContext = await browser.newContext();
    try {
      const phone = await phoneContext.newPage();
      expect(await openExam(phone, candidate)).toBe(attemptId);

      await laptop.getByRole("article", { name: "Question 3" }).getByLabel("Your answer").fill("typed on the laptop");
      await question(laptop, 1).getByRole("radio", { name: "Data link" }).check();
      await expectSaved(laptop, [1, 3]);

      await phone.reload();
      await expect(question(phone, 3).getByLabel("Your answer")).toHaveValue("typed on the laptop");
      await expect(question(phone, 1).getByRole("radio", { name: "Data link" })).toBeChecked();

      // The phone edits the same question later, and another one.
      await question(phone, 3).getByLabel("Your answer").fill("typed on the phone");
      await question(phone, 4).getByLabel("Your answer").fill("An essay begun on the phone.");
      await expectSaved(phone, [3, 4]);

      await laptop.reload();
      await expect(question(laptop, 3).getByLabel("Your answer")).toHaveValue("typed on the phone");
      await expect(question(laptop, 4).getByLabel("Your answer")).toHaveValue("An essay begun on the phone.");

      // Back on the laptop, the last word on question 1.
      await question(laptop, 1).getByRole("radio", { name: "Network" }).check();
      await expectSaved(laptop, [1]);
      await phone.reload();
      await expect(question(phone, 1).getByRole("radio", { name: "Network" })).toBeChecked();
      await expect(question(phone, 3).getByLabel("Your answer")).toHaveValue("typed on the phone");

      const [q1, , q3, q4] = exam.questionIds;
      const expected = { [q1!]: "b", [q3!]: "typed on the phone", [q4!]: "An essay begun on the phone." };
      expect(await serverAnswers(laptop.request, attemptId)).toEqual(expected);
      expect(await serverAnswers(phone.request, attemptId)).toEqual(expected);
    } finally {
      await phoneContext.close();
    }
  });
});
