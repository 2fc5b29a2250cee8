import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";

import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import Papa from "papaparse";

import type enStatisticsMessages from "../../messages/en/statistics.json";
import { expect, OBJECTIVE_TYPES, sampleQuestions, test, type Candidate } from "../fixtures";

// Issue 15, the results page: three candidates submit papers of objective questions (scored without a person).
// An admin opens the exam's results page and sees each total; the results.csv downloaded from the page has the
// same totals. Releasing (confirmed in a dialog) lets a candidate read their result through the API; withdrawing
// makes it 403 again.

function messages(locale: string): typeof enStatisticsMessages {
  const catalog = locale === "zh-CN" ? "zh-CN" : "en";
  return JSON.parse(
    readFileSync(new URL(`../../messages/${catalog}/statistics.json`, import.meta.url), "utf8"),
  ) as typeof enStatisticsMessages;
}

/** Single choice 1 point (key b), multiple choice 2 (key a+b, partial credit), numeric 1 (key 6): 4 in all. */
const QUESTIONS = sampleQuestions({ types: OBJECTIVE_TYPES });

/** Joins, starts and submits a paper through the API; returns the candidate's API context and attempt. */
async function submitPaper(
  baseURL: string,
  examId: string,
  questionIds: string[],
  candidate: Candidate,
  values: unknown[],
): Promise<{ api: APIRequestContext; attemptId: string }> {
  const api = await playwrightRequest.newContext({ baseURL });
  expect((await api.post("/api/session", { data: { joinToken: candidate.joinToken } })).status()).toBe(200);
  const started = await api.post(`/api/exams/${examId}/attempts`);
  expect([200, 201]).toContain(started.status());
  const { attemptId } = (await started.json()) as { attemptId: string };
  const answers = values.flatMap((value, index) =>
    value === undefined ? [] : [{ questionId: questionIds[index]!, value, version: 1 }],
  );
  const submitted = await api.post(`/api/attempts/${attemptId}/submit`, {
    data: { deviceId: "laptop", answers },
    headers: { "Idempotency-Key": randomUUID() },
  });
  expect(submitted.status(), await submitted.text()).toBe(200);
  return { api, attemptId };
}

for (const locale of ["en-US", "zh-CN"] as const) {
  const m = messages(locale);
  /** A score as the candidates' table shows it ("3 / 4", "3 / 4 分"). */
  const scoreText = (score: string, max: string) =>
    m.candidates.scoreValue.replace("{score}", score).replace("{max}", max);
  test.describe(`Results page, ${locale}`, () => {
    test.use({ locale });
    test.describe.configure({ timeout: 120_000 });

    test("shows the totals, the CSV has the same ones, and a release reaches the candidate until withdrawn", async ({
      page,
      context,
      server,
      createExam,
      enrollCandidate,
      createStaff,
      signIn,
    }) => {
      const exam = await createExam({ questions: QUESTIONS });
      const papers: { name: string; values: unknown[]; total: string }[] = [
        { name: locale === "zh-CN" ? "王小明" : "Lee Learner", values: ["b", ["a", "b"], 6], total: "4" },
        { name: locale === "zh-CN" ? "李华" : "Kim Student", values: ["a", ["a"], 6], total: "2" },
        { name: locale === "zh-CN" ? "张伟" : "Sam Taker", values: [undefined, ["a", "c"], 7], total: "0" },
      ];
      const submitted: { candidate: Candidate; api: APIRequestContext; attemptId: string }[] = [];
      for (const paper of papers) {
        const candidate = await enrollCandidate(exam.id, { name: paper.name });
        submitted.push({
          candidate,
          ...(await submitPaper(server.baseURL, exam.id, exam.questionIds, candidate, paper.values)),
        });
      }
      const admin = await createStaff("admin");
      await signIn(context, admin);

      await page.goto(`/admin/exams/${exam.id}/results`);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(exam.title);
      // The results worker scores each paper within a second or so; the page reads the figures again by itself.
      const scores = page.getByTestId("candidate-score");
      await expect(scores).toHaveCount(3);
      for (const [index, paper] of papers.entries()) {
        const row = page.locator(`tr[data-candidate="${submitted[index]!.candidate.email}"]`);
        await expect(row.getByTestId("candidate-score")).toHaveText(scoreText(paper.total, "4"), { timeout: 20_000 });
      }
      await expect(page.getByTestId("exam-figures")).toContainText(
        m.figures.scoredValue.replace("{scored}", "3").replace("{submitted}", "3"),
      );
      await expect(page.getByRole("img", { name: new RegExp(m.charts.histogram.slice(0, 2)) }).first()).toBeVisible();
      // The charts say nothing empty ("Score: — Candidates: —") while no bar is pointed at; pointing at the
      // histogram's first bar reads it out.
      const charts = page.locator("figure").filter({ has: page.getByRole("img") });
      await expect(charts.first()).toBeVisible();
      expect(await charts.allInnerTexts()).not.toContainEqual(expect.stringContaining("—"));
      const histogram = page.getByRole("img", { name: new RegExp(m.charts.histogram.slice(0, 2)) }).first();
      const histogramFigure = page.locator("figure").filter({ has: histogram });
      const box = (await histogram.boundingBox())!;
      // hover() scrolls the chart into view first (the mouse moves within the window only).
      await histogram.hover({ position: { x: 70, y: box.height / 2 } });
      await expect(histogramFigure).toContainText(`${m.charts.histogramCategory} `);
      await expect(histogramFigure).toContainText(`${m.charts.histogramSeries}: `);

      // The results.csv from the page's link: the same totals as on the screen.
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: m.downloads.resultsCsv }).click(),
      ]);
      const bytes = readFileSync(await download.path());
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const parsed = Papa.parse<Record<string, string>>(bytes.toString("utf8").slice(1).trim(), {
        header: true,
        newline: "\r\n",
      });
      expect(parsed.data).toHaveLength(3);
      for (const { candidate } of submitted) {
        const row = parsed.data.find((line) => line.email === candidate.email);
        const onScreen = await page
          .locator(`tr[data-candidate="${candidate.email}"]`)
          .getByTestId("candidate-score")
          .innerText();
        expect(scoreText(row!.score!, row!.max_score!)).toBe(onScreen);
      }

      // Before the release the candidate's result is not theirs to see.
      const first = submitted[0]!;
      expect((await first.api.get(`/api/attempts/${first.attemptId}/result`)).status()).toBe(403);

      await page.getByRole("button", { name: m.release.release, exact: true }).click();
      const dialog = page.getByRole("dialog", { name: m.release.releaseConfirmTitle });
      await expect(dialog).toBeVisible();
      await dialog.getByRole("button", { name: m.release.releaseConfirm, exact: true }).click();
      await expect(page.getByRole("status").filter({ hasText: m.release.releasedDone })).toBeVisible();
      await expect(page.getByRole("button", { name: m.release.withdraw, exact: true })).toBeVisible();
      const released = await first.api.get(`/api/attempts/${first.attemptId}/result`);
      expect(released.status(), await released.text()).toBe(200);
      expect(((await released.json()) as { score: number }).score).toBe(4);

      await page.getByRole("button", { name: m.release.withdraw, exact: true }).click();
      await page
        .getByRole("dialog", { name: m.release.withdrawConfirmTitle })
        .getByRole("button", { name: m.release.withdrawConfirm, exact: true })
        .click();
      await expect(page.getByRole("status").filter({ hasText: m.release.withdrawnDone })).toBeVisible();
      await expect(page.getByTestId("release-state")).toHaveText(m.release.notReleased);
      expect((await first.api.get(`/api/attempts/${first.attemptId}/result`)).status()).toBe(403);

      for (const { api } of submitted) await api.dispose();
    });
  });
}
