import { answersDigest } from "../../lib/shared/digest";
import { expect, test } from "../fixtures";

import { expectSaved, openExam, question } from "./exam-page";

// The deadline is moved into the past in Postgres while the candidate is offline; the server's sweeper
// (every 5 s in each instance) then submits the attempt with what the server holds.

test.describe("A deadline that passes while the candidate is offline", () => {
  test("auto-submits what the server had; the answer typed offline arrives later as a late answer", async ({
    page,
    context,
    sql,
    createExam,
    enrollCandidate,
  }) => {
    test.setTimeout(60_000);
    const exam = await createExam({ graceSeconds: 0 });
    const candidate = await enrollCandidate(exam.id);
    const attemptId = await openExam(page, candidate);
    const [, , q3, q4] = exam.questionIds;

    await question(page, 3).getByLabel("Your answer").fill("ARP");
    await expectSaved(page, [3]);

    await context.setOffline(true);
    const offlineEssay = "Written on the train, after the deadline had passed.";
    await question(page, 4).getByLabel("Your answer").fill(offlineEssay);
    await expect(question(page, 4).getByText("On this device, waiting to send")).toBeVisible();

    await sql.query("UPDATE attempts SET deadline = now() - interval '2 minutes' WHERE id = $1", [attemptId]);

    // The sweeper submits the paper the server holds: the online answer, not the offline one.
    await expect
      .poll(
        async () => {
          const { rows } = await sql.query<{ source: string }>("SELECT source FROM submissions WHERE attempt_id = $1", [
            attemptId,
          ]);
          return rows[0]?.source ?? null;
        },
        { timeout: 15_000 },
      )
      .toBe("auto");
    const { rows: frozen } = await sql.query<{ question_id: string; value: unknown }>(
      "SELECT question_id, value FROM answers WHERE attempt_id = $1",
      [attemptId],
    );
    expect(Object.fromEntries(frozen.map((answer) => [answer.question_id, answer.value]))).toEqual({ [q3!]: "ARP" });
    const { rows: submissions } = await sql.query<{ id: string; digest: string }>(
      "SELECT id, digest FROM submissions WHERE attempt_id = $1",
      [attemptId],
    );
    expect(submissions[0]!.digest).toBe(await answersDigest([{ questionId: q3!, value: "ARP" }]));

    // Back online, without further input: the page learns the truth and the offline edit reaches the server.
    await context.setOffline(false);
    await expect(page.getByRole("heading", { name: "Your answers were submitted" })).toBeVisible({ timeout: 30_000 });
    // The server knows who submitted, and the page says it (issue 11, defect 4).
    await expect(
      page.getByText("The time was up: the server submitted your paper at the deadline, with the answers it held."),
    ).toBeVisible();
    await expect(page.getByText(submissions[0]!.id)).toBeVisible();

    await expect
      .poll(
        async () => {
          const { rows } = await sql.query<{ question_id: string; value: unknown; via: string }>(
            "SELECT question_id, value, via FROM late_answers WHERE attempt_id = $1",
            [attemptId],
          );
          return rows;
        },
        { timeout: 30_000 },
      )
      .toEqual([{ question_id: q4, value: offlineEssay, via: "autosave" }]);

    // The late answer never changes the submitted paper.
    const { rows: after } = await sql.query("SELECT question_id FROM answers WHERE attempt_id = $1", [attemptId]);
    expect(after).toEqual([{ question_id: q3 }]);
  });
});
