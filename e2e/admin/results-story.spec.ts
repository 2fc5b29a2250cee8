import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";

import Papa from "papaparse";

import type enExamMessages from "../../messages/en/exam.json";
import type enGradingMessages from "../../messages/en/grading.json";
import type enLateAnswersMessages from "../../messages/en/lateAnswers.json";
import type enReceiptsMessages from "../../messages/en/receipts.json";
import type enStaffMessages from "../../messages/en/staff.json";
import type enStatisticsMessages from "../../messages/en/statistics.json";
import { expect, test } from "../fixtures";
import { gradingQuestions } from "./grading-data";

// Issue 15, "Done when", as one story in each language: candidates submit; the rules score what they can; a
// grader (a grader account, assigned to this exam only) marks an essay blind; an admin reads a late answer beside
// the frozen one and accepts it, and the total changes; the admin releases; the candidate sees their result; the
// CSV's totals are the screen's; the candidate's receipt verifies, and with one changed byte it does not.

function messages<T>(locale: string, namespace: string): T {
  const catalog = locale === "zh-CN" ? "zh-CN" : "en";
  return JSON.parse(readFileSync(new URL(`../../messages/${catalog}/${namespace}.json`, import.meta.url), "utf8")) as T;
}

/** A message with `{name}` placeholders filled in (plain placeholders only). */
function fill(message: string, values: Record<string, string | number>): string {
  return message.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? `{${key}}`));
}

for (const locale of ["en-US", "zh-CN"] as const) {
  const stats = messages<typeof enStatisticsMessages>(locale, "statistics");
  const grading = messages<typeof enGradingMessages>(locale, "grading");
  const late = messages<typeof enLateAnswersMessages>(locale, "lateAnswers");
  const receipts = messages<typeof enReceiptsMessages>(locale, "receipts");
  const staffWords = messages<typeof enStaffMessages>(locale, "staff");
  const examWords = messages<typeof enExamMessages>(locale, "exam");
  const score = (value: string | number, max: string | number) =>
    fill(stats.candidates.scoreValue, { score: value, max });

  test.describe(`Results from submission to release, ${locale}`, () => {
    test.use({ locale });
    test.describe.configure({ timeout: 180_000 });

    test("scored, graded blind, a late answer accepted, released, seen by the candidate; CSV and receipt agree", async ({
      browser,
      page,
      adminApi,
      createExam,
      enrollCandidate,
      createStaff,
      signIn,
    }) => {
      const zh = locale === "zh-CN";
      // Q1 an essay (5 points, a person marks it), Q2 a single choice (1 point, key "b").
      const exam = await createExam({
        title: zh
          ? `网络基础 — 成绩（${randomUUID().slice(0, 6)}）`
          : `Networking — results ${randomUUID().slice(0, 6)}`,
        questions: gradingQuestions(locale),
      });
      const [essayId, choiceId] = exam.questionIds as [string, string];
      const ada = await enrollCandidate(exam.id, { name: zh ? "王芳" : "Ada Lovelace" });
      const bo = await enrollCandidate(exam.id, { name: zh ? "李雷" : "Bo Turing" });

      // Ada, in her own browser: answers the essay and the wrong option, submits, keeps the receipt.
      const adaContext = await browser.newContext({ locale });
      const adaPage = await adaContext.newPage();
      await adaPage.goto(ada.joinUrl);
      const started = await adaPage.request.post(`/api/exams/${exam.id}/attempts`);
      expect([200, 201]).toContain(started.status());
      const { attemptId: adaAttempt } = (await started.json()) as { attemptId: string };
      const essay = zh
        ? "三次握手让双方确认彼此的初始序号，并防止旧的重复连接请求建立连接。"
        : "The handshake lets both sides agree initial sequence numbers and keeps old duplicate SYNs from opening connections.";
      const submitted = await adaPage.request.post(`/api/attempts/${adaAttempt}/submit`, {
        headers: { "Idempotency-Key": randomUUID() },
        data: {
          deviceId: "ada-laptop",
          answers: [
            { questionId: essayId, value: essay, version: 1 },
            { questionId: choiceId, value: "a", version: 1 },
          ],
        },
      });
      expect(submitted.status(), await submitted.text()).toBe(200);
      const submission = (await submitted.json()) as {
        submissionId: string;
        submittedAt: string;
        digest: string;
        receipt: string;
      };
      const receiptFile = {
        format: "holdfast-receipt",
        v: 1,
        examTitle: exam.title,
        candidateName: ada.name,
        attemptId: adaAttempt,
        submissionId: submission.submissionId,
        submittedAt: submission.submittedAt,
        source: "candidate",
        digest: submission.digest,
        receipt: submission.receipt,
      };
      // Her phone, offline until now, sends the right option after the paper was frozen: a late answer (409).
      const lateSave = await adaPage.request.post(`/api/attempts/${adaAttempt}/answers`, {
        data: { deviceId: "ada-phone", answers: [{ questionId: choiceId, value: "b", version: 2 }] },
      });
      expect(lateSave.status(), await lateSave.text()).toBe(409);

      // Bo leaves the essay blank and picks the right option.
      const boContext = await browser.newContext({ locale });
      const boPage = await boContext.newPage();
      await boPage.goto(bo.joinUrl);
      const boStarted = await boPage.request.post(`/api/exams/${exam.id}/attempts`);
      const { attemptId: boAttempt } = (await boStarted.json()) as { attemptId: string };
      const boSubmitted = await boPage.request.post(`/api/attempts/${boAttempt}/submit`, {
        headers: { "Idempotency-Key": randomUUID() },
        data: { deviceId: "bo-laptop", answers: [{ questionId: choiceId, value: "b", version: 1 }] },
      });
      expect(boSubmitted.status(), await boSubmitted.text()).toBe(200);
      await boContext.close();

      // The admin's results page: the rules' scores appear by themselves; Ada's essay waits for a person.
      const admin = await createStaff("admin");
      await signIn(page.context(), admin);
      await page.goto(`/admin/exams/${exam.id}/results`);
      const adaRow = page.locator(`tr[data-candidate="${ada.email}"]`);
      const boRow = page.locator(`tr[data-candidate="${bo.email}"]`);
      await expect(adaRow.getByTestId("candidate-score")).toHaveText(score(0, 6), { timeout: 20_000 });
      await expect(adaRow).toContainText(stats.candidates.waiting);
      await expect(boRow.getByTestId("candidate-score")).toHaveText(score(1, 6), { timeout: 20_000 });
      await expect(boRow).toContainText(stats.candidates.graded);

      // A grader, assigned to this exam, marks the essay from their own home page, blind.
      const grader = await createStaff("grader");
      const assigned = await adminApi.put(`/api/admin/exams/${exam.id}/graders/${grader.id}`);
      expect(assigned.status(), await assigned.text()).toBe(204);
      const graderContext = await browser.newContext({ locale });
      await signIn(graderContext, grader);
      const graderPage = await graderContext.newPage();
      await graderPage.goto("/grading");
      await graderPage.getByRole("link", { name: exam.title }).click();
      await expect(graderPage).toHaveURL(new RegExp(`/admin/exams/${exam.id}/grading$`));
      await graderPage.getByRole("link", { name: fill(grading.overview.gradeLabel, { position: 1 }) }).click();
      const points = graderPage.getByLabel(fill(grading.queue.points, { max: 5 }));
      await expect(points).toBeVisible();
      await expect(graderPage.getByText(essay)).toBeVisible();
      for (const name of [ada.name, bo.name]) await expect(graderPage.locator("body")).not.toContainText(name);
      await graderPage.locator("h1").click();
      await graderPage.keyboard.press("4");
      await expect(points).toHaveValue("4");
      await graderPage.keyboard.press("Enter");
      await expect(
        graderPage
          .getByRole("status")
          .filter({ hasText: /4/ })
          .filter({ hasText: /[0-9A-Z]{4}-[0-9A-Z]{4}/ }),
      ).toBeAttached();
      // Graders do not reach the admin's pages.
      await graderPage.goto(`/admin/exams/${exam.id}/results`);
      await expect(graderPage).toHaveURL(/\/grading$/);
      await graderContext.close();

      await page.reload();
      await expect(adaRow.getByTestId("candidate-score")).toHaveText(score(4, 6), { timeout: 20_000 });
      await expect(adaRow).toContainText(stats.candidates.graded);

      // The late answer, beside the frozen one; accepted, the total goes up by the choice's point.
      await page.getByRole("link", { name: staffWords.resultsNav.lateAnswers, exact: true }).click();
      const group = page.getByRole("region", { name: ada.name });
      const lateTotal = group.getByTestId("late-answers-total");
      await expect(lateTotal).toHaveText(fill(late.total, { score: 4, max: 6 }));
      const article = group.getByRole("article", { name: fill(late.question, { position: 2 }) });
      await expect(article).toContainText(zh ? "数据链路层" : "Data link");
      await expect(article).toContainText(zh ? "网络层" : "Network");
      await article.getByRole("button", { name: fill(late.acceptLabel, { position: 2, name: ada.name }) }).click();
      const dialog = page.getByRole("dialog", { name: fill(late.dialog.acceptTitle, { position: 2 }) });
      await dialog.getByRole("button", { name: late.dialog.confirmAccept, exact: true }).click();
      await expect(dialog).toHaveCount(0);
      await expect(lateTotal).toHaveText(fill(late.total, { score: 5, max: 6 }));

      // The results page says 5 of 6; the CSV from its link says the same for both candidates.
      await page.getByRole("link", { name: staffWords.resultsNav.results, exact: true }).click();
      await expect(adaRow.getByTestId("candidate-score")).toHaveText(score(5, 6), { timeout: 20_000 });
      await expect(boRow.getByTestId("candidate-score")).toHaveText(score(1, 6));
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: stats.downloads.resultsCsv }).click(),
      ]);
      const bytes = readFileSync(await download.path());
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const csv = Papa.parse<Record<string, string>>(bytes.toString("utf8").slice(1).trim(), {
        header: true,
        newline: "\r\n",
      });
      expect(csv.data).toHaveLength(2);
      for (const candidate of [ada, bo]) {
        const line = csv.data.find((row) => row.email === candidate.email)!;
        expect(line.name).toBe(candidate.name);
        expect(line.graded).toBe("true");
        const onScreen = await page
          .locator(`tr[data-candidate="${candidate.email}"]`)
          .getByTestId("candidate-score")
          .innerText();
        expect(score(line.score!, line.max_score!)).toBe(onScreen);
      }
      expect(csv.data.find((row) => row.email === ada.email)).toMatchObject({ score: "5", q1: "4", q2: "1" });

      // Before the release, Ada's result page shows no number.
      await adaPage.goto(`/attempts/${adaAttempt}/result`);
      await expect(adaPage.getByTestId("result-pending")).toBeVisible();
      await expect(adaPage.getByTestId("result-total")).toHaveCount(0);

      // The admin releases; Ada sees 5 of 6 and her points by question, in her language.
      await page.getByRole("button", { name: stats.release.release, exact: true }).click();
      await page
        .getByRole("dialog", { name: stats.release.releaseConfirmTitle })
        .getByRole("button", { name: stats.release.releaseConfirm, exact: true })
        .click();
      await expect(page.getByRole("status").filter({ hasText: stats.release.releasedDone })).toBeVisible();
      await adaPage.reload();
      const total = adaPage.getByTestId("result-total");
      await expect(total).toContainText("5");
      await expect(total).toContainText("6");
      const byQuestion = adaPage.getByTestId("result-questions");
      await expect(byQuestion).toContainText(fill(examWords.result.questionHeading, { position: 1 }));
      await expect(byQuestion).toContainText(fill(examWords.result.points, { points: 4, max: 5 }));
      await adaContext.close();

      // The receipt verifier: Ada's receipt is valid and names her submission; one changed byte is not.
      await page.goto("/admin/receipts");
      const verdict = page.getByRole("status").filter({ has: page.getByRole("heading", { level: 2 }) });
      await page.getByLabel(receipts.paste).fill(JSON.stringify(receiptFile));
      await page.getByRole("button", { name: receipts.verify, exact: true }).click();
      await expect(verdict.getByRole("heading", { name: receipts.valid, exact: true })).toBeVisible();
      await expect(verdict).toContainText(ada.name);
      await expect(verdict).toContainText(receipts.digestMatches);
      const digest = submission.digest;
      const changed = `${digest.slice(0, 5)}${digest[5] === "0" ? "1" : "0"}${digest.slice(6)}`;
      await page.getByLabel(receipts.paste).fill(JSON.stringify({ ...receiptFile, digest: changed }));
      await page.getByRole("button", { name: receipts.verify, exact: true }).click();
      await expect(verdict.getByRole("heading", { name: receipts.invalid, exact: true })).toBeVisible();
      await expect(verdict).toContainText(receipts.reason.signature);
    });
  });
}
