import { readFileSync } from "node:fs";

import type enCandidateMessages from "../../messages/en/candidate.json";
import type enCommonMessages from "../../messages/en/common.json";
import type enEnrollmentMessages from "../../messages/en/enrollment.json";
import type enExamMessages from "../../messages/en/exam.json";
import { expect, test } from "../fixtures";

// A candidate is force-submitted by mistake. An admin reopens the attempt from the candidates page with a
// reason; the candidate's page, still open on the receipt, becomes editable again by itself (the "reopened"
// event), says the paper was reopened, and the candidate changes an answer and submits again through the page.
// The API then shows submission 2, with submission 1 and its receipt kept (ADR 017).

function messages<T>(locale: string, namespace: string): T {
  return JSON.parse(readFileSync(new URL(`../../messages/${locale}/${namespace}.json`, import.meta.url), "utf8")) as T;
}

const LANGUAGES = (["en-US", "zh-CN"] as const).map((locale) => {
  const catalog = locale === "zh-CN" ? "zh-CN" : "en";
  return {
    locale,
    m: messages<typeof enEnrollmentMessages>(catalog, "enrollment"),
    exam: messages<typeof enExamMessages>(catalog, "exam"),
    common: messages<typeof enCommonMessages>(catalog, "common"),
    candidate: messages<typeof enCandidateMessages>(catalog, "candidate"),
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

/** The words of a message after a placeholder whose value varies (a time), the others filled in. */
function after(message: string, placeholder: string, values: Record<string, string | number> = {}): string {
  return fill(message.slice(message.indexOf(`{${placeholder}}`) + placeholder.length + 2), values);
}

for (const { locale, m, exam: me, common, candidate: mc } of LANGUAGES) {
  test.describe(`Reopening a submitted attempt, ${locale}`, () => {
    test.use({ locale });
    test.describe.configure({ timeout: 120_000 });

    test("an admin reopens a force-submitted attempt; the open page unfreezes and the candidate submits again", async ({
      page,
      browser,
      context,
      createExam,
      enrollCandidate,
      createStaff,
      signIn,
      adminApi,
    }) => {
      const exam = await createExam();
      const candidate = await enrollCandidate(exam.id, { name: locale === "zh-CN" ? "王小明" : "Lee Learner" });
      const admin = await createStaff("admin");
      await signIn(context, admin);

      // The candidate answers question 3 on their own device.
      const candidateContext = await browser.newContext({ locale });
      const exampage = await candidateContext.newPage();
      await exampage.goto(candidate.joinUrl);
      await exampage.getByRole("button", { name: mc.start.start, exact: true }).click();
      await expect(exampage).toHaveURL(/\/attempts\/[0-9a-f-]{36}$/);
      const attemptId = /\/attempts\/([0-9a-f-]{36})$/.exec(exampage.url())![1]!;
      const third = exampage.getByRole("article", { name: fill(common.question.heading, { position: 3 }) });
      await third.getByLabel(me.answer.label).fill("ARP");
      await expect(third.getByText(me.saveStatus.saved, { exact: true })).toBeVisible();

      // A proctor force-submits them by mistake (through the API): the page ends on its receipt.
      const forced = await adminApi.post(`/api/proctor/attempts/${attemptId}/force-submit`, {
        data: { reason: "wrong row" },
      });
      expect(forced.status(), await forced.text()).toBe(200);
      const first = (await forced.json()) as { submissionId: string };
      await expect(exampage.getByRole("heading", { name: me.final.title })).toBeVisible({ timeout: 10_000 });
      await expect(third).toHaveCount(0);

      // The admin reopens it from the candidates page, with a reason.
      await page.goto(`/admin/exams/${exam.id}/candidates`);
      const list = page.getByRole("region", { name: m.list.tableLabel });
      const row = list.getByRole("row").filter({ hasText: candidate.email });
      await expect(row).toContainText(before(m.list.submitted, "time"));
      await row.getByRole("button", { name: fill(m.list.reopenFor, { name: candidate.name }) }).click();
      const dialog = page.getByRole("dialog", { name: fill(m.reopen.title, { name: candidate.name }) });
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText(fill(m.reopen.intro, { version: 1 }));
      // A reason is required: refused inline, nothing sent.
      await dialog.getByRole("button", { name: m.reopen.submit, exact: true }).click();
      await expect(dialog.getByText(fill(m.reopen.reasonTooShort, { min: 3 }))).toBeVisible();
      await dialog.getByLabel(m.reopen.reason).fill("Force-submitted by mistake: the proctor chose the wrong row.");
      await dialog.getByRole("button", { name: m.reopen.submit, exact: true }).click();
      await expect(dialog.getByRole("status")).toContainText(before(m.reopen.done, "time", { name: candidate.name }));
      await dialog.getByRole("button", { name: m.reopen.close, exact: true }).click();
      await expect(dialog).toHaveCount(0);
      await expect(row).toContainText(before(m.list.reopenedInProgress, "time"));
      await expect(row).toContainText(after(m.list.reopenedInProgress, "time", { version: 2 }));

      // The candidate's page, still open, becomes editable again by itself and says why.
      await expect(third.getByLabel(me.answer.label)).toBeEditable({ timeout: 10_000 });
      await expect(third.getByLabel(me.answer.label)).toHaveValue("ARP");
      await expect(exampage.getByText(fill(me.reopened, { version: 1 }))).toBeVisible({ timeout: 10_000 });

      // They change the answer and submit again, through the page: a new receipt.
      await third.getByLabel(me.answer.label).fill("ARP, then RARP");
      await expect(third.getByText(me.saveStatus.saved, { exact: true })).toBeVisible();
      await exampage.getByRole("button", { name: me.reviewAndSubmit }).first().click();
      const review = exampage.getByRole("dialog", { name: me.review.title });
      await review.getByRole("button", { name: me.review.submit }).click();
      await expect(exampage.getByRole("heading", { name: me.final.title })).toBeVisible({ timeout: 10_000 });

      // The API: submission 2 is the current one; submission 1 and its receipt are kept.
      const view = await exampage.request.get(`/api/attempts/${attemptId}`);
      expect(view.status()).toBe(200);
      const body = (await view.json()) as {
        status: string;
        submission: { submissionId: string; version: number; source: string };
        earlierSubmissions: { submissionId: string; version: number; receipt: string }[];
      };
      expect(body.status).toBe("submitted");
      expect(body.submission).toMatchObject({ version: 2, source: "candidate" });
      expect(body.earlierSubmissions).toEqual([
        expect.objectContaining({ submissionId: first.submissionId, version: 1, receipt: expect.any(String) }),
      ]);
      await expect(exampage.getByText(body.submission.submissionId)).toBeVisible();

      // The admin's list says so after a reload.
      await page.reload();
      await expect(row).toContainText(after(m.list.submittedVersion, "time", { version: 2 }));
      await candidateContext.close();
    });
  });
}
