import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";

import type enCommonMessages from "../../messages/en/common.json";
import type enErrorsMessages from "../../messages/en/errors.json";
import type enExamMessages from "../../messages/en/exam.json";
import type enLateAnswersMessages from "../../messages/en/lateAnswers.json";
import type enReceiptsMessages from "../../messages/en/receipts.json";
import type enStaffMessages from "../../messages/en/staff.json";
import type enCandidateMessages from "../../messages/en/candidate.json";
import { expect, test } from "../fixtures";
import { startThroughApi } from "../proctor/dashboard-page";

// Issue 15, late answers and receipts, as an admin meets them. A candidate's paper is force-submitted; three
// answers from their phone arrive after it (kept as late answers). The admin reads each beside the frozen one,
// rejects one (a reason is required), accepts one (the candidate's total goes up; the frozen paper does not
// change), and loses a race for the third to a decision made meanwhile through the API (409, said in their
// language, with the state read again). Then a candidate's real downloaded receipt is verified as valid, and the
// same receipt with one changed byte as not valid.

function messages<T>(locale: string, namespace: string): T {
  return JSON.parse(readFileSync(new URL(`../../messages/${locale}/${namespace}.json`, import.meta.url), "utf8")) as T;
}

const LANGUAGES = (["en-US", "zh-CN"] as const).map((locale) => {
  const catalog = locale === "zh-CN" ? "zh-CN" : "en";
  return {
    locale,
    m: messages<typeof enLateAnswersMessages>(catalog, "lateAnswers"),
    r: messages<typeof enReceiptsMessages>(catalog, "receipts"),
    errors: messages<typeof enErrorsMessages>(catalog, "errors"),
    common: messages<typeof enCommonMessages>(catalog, "common"),
    staff: messages<typeof enStaffMessages>(catalog, "staff"),
    exam: messages<typeof enExamMessages>(catalog, "exam"),
    candidate: messages<typeof enCandidateMessages>(catalog, "candidate"),
    autosave: locale === "zh-CN" ? "自动保存" : "Autosave",
  };
});

/** A message with `{name}`-style placeholders filled in. */
function fill(message: string, values: Record<string, string | number>): string {
  return message.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? `{${key}}`));
}

/** The words of a message before a placeholder whose value varies (a time), the others filled in. */
function before(message: string, placeholder: string, values: Record<string, string | number> = {}): string {
  return fill(message.slice(0, message.indexOf(`{${placeholder}}`)), values);
}

/** One character of `text` at `index` changed to another of the same alphabet. */
function changeOneByte(text: string, index: number): string {
  const char = text[index]!;
  const other = char === "A" ? "B" : "A";
  return `${text.slice(0, index)}${other}${text.slice(index + 1)}`;
}

for (const { locale, m, r, errors, common, staff, exam: me, candidate: mc, autosave } of LANGUAGES) {
  test.describe(`Late answers and receipts, ${locale}`, () => {
    test.use({ locale });
    test.describe.configure({ timeout: 120_000 });

    test("an admin reads late answers beside the frozen ones, rejects one with a reason, accepts one, and loses a race", async ({
      page,
      server,
      sql,
      adminApi,
      createExam,
      enrollCandidate,
      createStaff,
      signIn,
    }) => {
      const exam = await createExam();
      const [single, multiple, , , numeric] = exam.questionIds as [string, string, string, string, string];
      const candidate = await enrollCandidate(exam.id, { name: locale === "zh-CN" ? "王小明" : "Lee Learner" });
      const admin = await createStaff("admin");
      const adminLabel = `${admin.name} <${admin.email}>`;

      // The candidate's laptop saves three wrong answers; a proctor force-submits the paper.
      const api = await startThroughApi(server.baseURL, exam.id, candidate);
      const save = (deviceId: string, version: number, values: [string, unknown][]) =>
        api.request.post(`/api/attempts/${api.attemptId}/answers`, {
          data: { deviceId, answers: values.map(([questionId, value]) => ({ questionId, value, version })) },
        });
      const saved = await save("laptop", 1, [
        [single, "a"],
        [multiple, ["c"]],
        [numeric, 8],
      ]);
      expect(saved.status(), await saved.text()).toBe(200);
      const forced = await adminApi.post(`/api/proctor/attempts/${api.attemptId}/force-submit`, {
        data: { reason: "time is up" },
      });
      expect(forced.status(), await forced.text()).toBe(200);
      // The phone, offline until now, sends its answers after the freeze: kept as late answers (409).
      const late = await save("phone-7f3a9c2e1b", 2, [
        [single, "b"],
        [multiple, ["a", "b"]],
        [numeric, 6],
      ]);
      expect(late.status(), await late.text()).toBe(409);
      await api.request.dispose();

      await signIn(page.context(), admin);
      await page.goto(`/admin/exams/${exam.id}/late-answers`);
      await expect(page.getByRole("heading", { level: 1, name: fill(m.title, { exam: exam.title }) })).toBeVisible();
      await expect(page.getByRole("link", { name: staff.resultsNav.lateAnswers, exact: true })).toHaveAttribute(
        "aria-current",
        "page",
      );
      const group = page.getByRole("region", { name: candidate.name });
      const total = group.getByTestId("late-answers-total");
      // The paper is scored by the results worker within a second or so: 0 of 10 points.
      await expect(async () => {
        await page.reload();
        await expect(total).toHaveText(fill(m.total, { score: 0, max: 10 }), { timeout: 1_000 });
      }).toPass({ timeout: 20_000 });

      // Question 1, a choice: the options' labels, never their ids; the device, how it came.
      const first = group.getByRole("article", { name: fill(m.question, { position: 1 }) });
      await expect(first).toContainText(m.frozen);
      await expect(first).toContainText("Data link");
      await expect(first).toContainText(m.late);
      await expect(first).toContainText("Network");
      await expect(first).toContainText("phone-7f");
      await expect(first).toContainText(autosave);
      await expect(first).toContainText(m.facts.deadline);
      await expect(first).toContainText(m.facts.receivedAt);
      await expect(first).toContainText(m.undecided);

      // Reject question 5: the reason is required, said beside the field; nothing is sent without it.
      const fifth = group.getByRole("article", { name: fill(m.question, { position: 5 }) });
      await fifth.getByRole("button", { name: fill(m.rejectLabel, { position: 5, name: candidate.name }) }).click();
      const reject = page.getByRole("dialog", { name: fill(m.dialog.rejectTitle, { position: 5 }) });
      await expect(reject).toBeVisible();
      await reject.getByRole("button", { name: m.dialog.confirmReject, exact: true }).click();
      const reason = reject.getByLabel(m.dialog.reasonRequired);
      await expect(reason).toHaveAttribute("aria-invalid", "true");
      await expect(reject.getByText(m.dialog.reasonMissing)).toBeVisible();
      await reason.fill(
        locale === "zh-CN" ? "收卷后才从手机发出。" : "Sent from the phone after the papers were collected.",
      );
      await reject.getByRole("button", { name: m.dialog.confirmReject, exact: true }).click();
      await expect(reject).toHaveCount(0);
      await expect(fifth).toContainText(before(m.decision.rejected, "time", { by: adminLabel }));
      await expect(fifth).toContainText(
        locale === "zh-CN" ? "收卷后才从手机发出。" : "after the papers were collected",
      );
      await expect(total).toHaveText(fill(m.total, { score: 0, max: 10 }));

      // Accept question 1 (a confirmation, the reason optional): the total goes up by its point.
      await first.getByRole("button", { name: fill(m.acceptLabel, { position: 1, name: candidate.name }) }).click();
      const accept = page.getByRole("dialog", { name: fill(m.dialog.acceptTitle, { position: 1 }) });
      await expect(accept).toContainText("Network");
      await accept.getByRole("button", { name: m.dialog.confirmAccept, exact: true }).click();
      await expect(accept).toHaveCount(0);
      await expect(first).toContainText(before(m.decision.accepted, "time", { by: adminLabel }));
      await expect(total).toHaveText(fill(m.total, { score: 1, max: 10 }));

      // Question 2: while the admin's dialog is open, someone decides it through the API. Their click gets
      // 409 LATE_ANSWER_DECIDED, said in their language, and the page shows the decision that was taken.
      const second = group.getByRole("article", { name: fill(m.question, { position: 2 }) });
      await second.getByRole("button", { name: fill(m.acceptLabel, { position: 2, name: candidate.name }) }).click();
      const race = page.getByRole("dialog", { name: fill(m.dialog.acceptTitle, { position: 2 }) });
      await expect(race).toBeVisible();
      const list = await adminApi.get(`/api/admin/exams/${exam.id}/late-answers`);
      const rows = ((await list.json()) as { lateAnswers: { id: string; position: number }[] }).lateAnswers;
      const secondId = rows.find((row) => row.position === 2)!.id;
      const meanwhile = await adminApi.post(`/api/admin/exams/${exam.id}/late-answers/${secondId}/decision`, {
        data: { decision: "rejected", reason: "one answer per candidate after the bell" },
      });
      expect(meanwhile.status(), await meanwhile.text()).toBe(201);
      await race.getByRole("button", { name: m.dialog.confirmAccept, exact: true }).click();
      await expect(race).toHaveCount(0);
      await expect(second.getByRole("alert")).toHaveText(errors.codes.LATE_ANSWER_DECIDED);
      await expect(second).toContainText(before(m.decision.rejected, "time", { by: "API token" }));
      await expect(total).toHaveText(fill(m.total, { score: 1, max: 10 }));

      // The API agrees: two rejected, one accepted; the frozen paper's digest is as it was submitted.
      const after = (await (await adminApi.get(`/api/admin/exams/${exam.id}/late-answers`)).json()) as {
        lateAnswers: { position: number; decision: { decision: string } | null }[];
      };
      expect(
        after.lateAnswers
          .map((row) => [row.position, row.decision?.decision])
          .sort((a, b) => Number(a[0]) - Number(b[0])),
      ).toEqual([
        [1, "accepted"],
        [2, "rejected"],
        [5, "rejected"],
      ]);
      const { rows: submissions } = await sql.query<{ submitted_at: Date; digest: string; receipt: string }>(
        "SELECT submitted_at, digest, receipt FROM submissions WHERE attempt_id = $1",
        [api.attemptId],
      );
      const submission = submissions[0]!;
      const verdict = await adminApi.post("/api/admin/receipts/verify", {
        data: {
          attemptId: api.attemptId,
          submittedAt: submission.submitted_at.toISOString(),
          digest: submission.digest,
          receipt: submission.receipt,
        },
      });
      expect(await verdict.json()).toMatchObject({ valid: true, current: true, digestMatchesPaper: true });
    });

    test("a candidate's downloaded receipt is valid; with one changed byte it is not", async ({
      page,
      browser,
      createExam,
      enrollCandidate,
      createStaff,
      signIn,
    }, testInfo) => {
      const exam = await createExam();
      const candidate = await enrollCandidate(exam.id, { name: locale === "zh-CN" ? "李华" : "Ray Receipt" });
      const admin = await createStaff("admin");

      // The candidate answers, submits through the page and downloads the receipt.
      const candidateContext = await browser.newContext({ locale });
      const exampage = await candidateContext.newPage();
      await exampage.goto(candidate.joinUrl);
      await exampage.getByRole("button", { name: mc.start.start, exact: true }).click();
      await expect(exampage).toHaveURL(/\/attempts\/[0-9a-f-]{36}$/);
      const third = exampage.getByRole("article", { name: fill(common.question.heading, { position: 3 }) });
      await third.getByLabel(me.answer.label).fill("ARP");
      await expect(third.getByText(me.saveStatus.saved, { exact: true })).toBeVisible();
      await exampage.getByRole("button", { name: me.reviewAndSubmit }).first().click();
      await exampage
        .getByRole("dialog", { name: me.review.title })
        .getByRole("button", { name: me.review.submit })
        .click();
      await expect(exampage.getByRole("heading", { name: me.final.title })).toBeVisible({ timeout: 10_000 });
      const [download] = await Promise.all([
        exampage.waitForEvent("download"),
        exampage.getByRole("button", { name: me.receipt.download }).click(),
      ]);
      const receiptPath = testInfo.outputPath("receipt.json");
      await download.saveAs(receiptPath);
      await candidateContext.close();
      const receipt = JSON.parse(await readFile(receiptPath, "utf8")) as Record<string, string>;

      // The admin finds the verifier in the header and uploads the file as it came.
      await signIn(page.context(), admin);
      await page.goto("/admin");
      await page.getByRole("link", { name: common.navReceipts, exact: true }).click();
      await expect(page.getByRole("heading", { level: 1, name: r.title })).toBeVisible();
      await page.getByLabel(r.upload).setInputFiles(receiptPath);
      const verdict = page.getByRole("status").filter({ has: page.getByRole("heading", { level: 2 }) });
      await expect(verdict.getByRole("heading", { name: r.valid, exact: true })).toBeVisible();
      await expect(verdict).toContainText(r.validSummary);
      await expect(verdict).toContainText(exam.title);
      await expect(verdict).toContainText(candidate.name);
      await expect(verdict).toContainText(fill(r.submissionCurrent, { version: 1 }));
      await expect(verdict).toContainText(r.digestMatches);

      // One changed byte in the signature: not valid, and why.
      const tamperedPath = testInfo.outputPath("receipt-tampered.json");
      const signature = receipt.receipt!;
      await writeFile(tamperedPath, JSON.stringify({ ...receipt, receipt: changeOneByte(signature, 10) }, null, 2));
      await page.getByLabel(r.upload).setInputFiles(tamperedPath);
      await expect(verdict.getByRole("heading", { name: r.invalid, exact: true })).toBeVisible();
      await expect(verdict).toContainText(r.reason.signature);

      // Pasted as it came: valid again. With one changed byte in the submission time: not valid.
      await page.getByLabel(r.paste).fill(JSON.stringify(receipt));
      await page.getByRole("button", { name: r.verify, exact: true }).click();
      await expect(verdict.getByRole("heading", { name: r.valid, exact: true })).toBeVisible();
      const submittedAt = receipt.submittedAt!;
      const changedTime = submittedAt.replace(/(\d)Z$/, (_, digit: string) => `${digit === "0" ? "1" : "0"}Z`);
      await page.getByLabel(r.paste).fill(JSON.stringify({ ...receipt, submittedAt: changedTime }));
      await page.getByRole("button", { name: r.verify, exact: true }).click();
      await expect(verdict.getByRole("heading", { name: r.invalid, exact: true })).toBeVisible();
      await expect(verdict).toContainText(r.reason.signature);

      // Text that is not JSON is refused beside the field, and nothing is sent.
      await page.getByLabel(r.paste).fill("holdfast receipt, please check");
      await page.getByRole("button", { name: r.verify, exact: true }).click();
      await expect(page.getByLabel(r.paste)).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByText(r.notJson)).toBeVisible();
    });
  });
}
