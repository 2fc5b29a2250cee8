import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";

import type { APIRequestContext, Page } from "@playwright/test";
import Papa from "papaparse";

import {
  allXssPayloads,
  FORMULA_PAYLOADS,
  FORMULA_TRIGGER,
  LONG_PAYLOAD,
  tagged,
  XSS_PAYLOADS,
} from "../../test-support/shared/hostile-corpus";
import { expect, test, uniqueTag } from "../fixtures";
import { startThroughApi } from "../proctor/dashboard-page";

// Issue 18, "Hostile content": everything people type is shown as text everywhere. One exam is seeded with the
// XSS corpus in every field a person types (exam text, questions and options, candidate names through the API
// and the CSV import, a staff name, answers, an announcement, a pause reason, an extension reason, a grader's
// comment, a force-submit and a late answer's reasons, a webhook URL), then every view that shows them is opened
// in Chromium. On each: the payload is on the page as text, no dialog opened and `window.__xss` was never set
// (an init script traps it, and `alert`/`confirm`/`prompt`). Then every CSV export is downloaded with the
// formula corpus in it: no cell starts with = + - @ tab or CR, and the text itself survives behind the `'`.

const TITLE = `Hostile ${XSS_PAYLOADS[0].text} exam ${uniqueTag()}`;
const DESCRIPTION = allXssPayloads();
const RULES = tagged("Rules", 5);
const ESSAY_PROMPT = tagged("Essay", 1);
const CHOICE_PROMPT = tagged("Choose", 2);
const OPTIONS = [XSS_PAYLOADS[3].text, XSS_PAYLOADS[4].text, XSS_PAYLOADS[8].text];
const SHORT_PROMPT = tagged("Short", 6);
const ADA = `Ada ${XSS_PAYLOADS[1].text} ${XSS_PAYLOADS[7].text}`;
const LATE = `Lee ${XSS_PAYLOADS[2].text}`;
const CSV_NAMES = FORMULA_PAYLOADS.slice(0, 4).map((payload) => payload.text);
const ESSAY_ANSWER = LONG_PAYLOAD;
const SHORT_ANSWER = XSS_PAYLOADS[5].text;
const ANNOUNCEMENT = tagged("Announcement", 6);
const EXTENSION_REASON = tagged("Extension", 0);
const PAUSE_REASON = tagged("Pause", 2);
const FORCE_REASON = tagged("Force", 1);
const COMMENT = `${FORMULA_PAYLOADS[0].text} ${tagged("Comment", 3)}`;
const LATE_REASON = tagged("Rejected", 5);
const STAFF_NAME = `Sam ${XSS_PAYLOADS[2].text}`;
const WEBHOOK_URL = `https://hooks.example.invalid/in?x="><svg onload=window.__xss=1>&y=<script>`;

/** Traps every way the corpus could report it ran, before any page script. */
const TRAP = () => {
  const hits: string[] = [];
  Object.defineProperty(window, "__xssHits", { value: hits });
  Object.defineProperty(window, "__xss", {
    configurable: false,
    get: () => undefined,
    set: (value: unknown) => void hits.push(`__xss=${String(value)}`),
  });
  for (const name of ["alert", "confirm", "prompt"] as const) {
    Object.defineProperty(window, name, { value: (...args: unknown[]) => void hits.push(`${name}(${args.join()})`) });
  }
};

/** Nothing ran on the page: no trapped call, no dialog, `window.__xss` never set. */
async function expectNothingRan(page: Page, dialogs: string[], view: string) {
  const hits = await page.evaluate(() => (window as unknown as { __xssHits: string[] }).__xssHits);
  expect(hits, view).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss), view).toBeUndefined();
  expect(dialogs, view).toEqual([]);
}

/** Opens a view and checks each text is shown as text, then that nothing ran. */
async function visit(page: Page, dialogs: string[], path: string | null, texts: readonly string[]) {
  if (path) await page.goto(path);
  for (const text of texts) await expect(page.getByText(text).first(), `${path}: ${text.slice(0, 80)}`).toBeVisible();
  await expectNothingRan(page, dialogs, path ?? page.url());
}

/** A CSV export's cells, the byte-order mark aside. */
async function csvCells(api: APIRequestContext, path: string): Promise<string[]> {
  const response = await api.get(path, { headers: { Accept: "text/csv" } });
  expect(response.status(), path).toBe(200);
  const text = (await response.text()).replace(/^\uFEFF/, "");
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: true });
  expect(parsed.errors, path).toEqual([]);
  return parsed.data.flat();
}

test.describe.serial("hostile content", () => {
  // One long story (one seeded exam reused by every view): about 25 page loads; 4.5 min on a loaded box.
  test.describe.configure({ timeout: 600_000 });

  test("the XSS corpus is text in every view, and every CSV export keeps formulas as text", async ({
    browser,
    server,
    sql,
    adminApi,
    createExam,
    enrollCandidate,
    createStaff,
    signIn,
  }) => {
    // ---- Seed: the exam, its candidates, a staff member, all with hostile text --------------------------------
    const exam = await createExam({
      title: TITLE,
      description: DESCRIPTION,
      rules: RULES,
      questions: [
        { type: "essay", prompt: ESSAY_PROMPT, points: 5 },
        {
          type: "single_choice",
          prompt: CHOICE_PROMPT,
          options: OPTIONS.map((label, index) => ({ id: "abc"[index]!, label })),
          answerKey: "b",
          points: 1,
        },
        { type: "short_text", prompt: SHORT_PROMPT, answerKey: "ARP", points: 1 },
      ],
    });
    const [essayId, choiceId, shortId] = exam.questionIds as [string, string, string];
    const ada = await enrollCandidate(exam.id, { name: ADA });
    const lee = await enrollCandidate(exam.id, { name: LATE });
    const csv = Papa.unparse(
      [
        ["name", "email", "extra_minutes"],
        ...CSV_NAMES.map((name, index) => [name, `formula-${index}-${uniqueTag()}@example.org`, "0"]),
      ],
      { newline: "\r\n" },
    );
    const imported = await adminApi.post(`/api/admin/exams/${exam.id}/candidates`, {
      headers: { "Content-Type": "text/csv; charset=utf-8" },
      data: csv,
    });
    expect(imported.status(), await imported.text()).toBe(200);

    const staff = await createStaff("admin");
    await sql.query("UPDATE staff_users SET name = $1 WHERE id = $2", [STAFF_NAME, staff.id]);
    const webhook = await adminApi.post(`/api/admin/exams/${exam.id}/webhooks`, {
      data: { url: WEBHOOK_URL, events: ["submission.created"] },
    });
    expect(webhook.status(), await webhook.text()).toBe(201);

    const dialogs: string[] = [];
    const candidateContext = await browser.newContext({ locale: "en-US" });
    const staffContext = await browser.newContext({ locale: "en-US" });
    try {
      for (const context of [candidateContext, staffContext]) await context.addInitScript(TRAP);
      const candidatePage = await candidateContext.newPage();
      const page = await staffContext.newPage();
      for (const watched of [candidatePage, page]) {
        watched.on("dialog", (dialog) => {
          dialogs.push(`${dialog.type()}: ${dialog.message()}`);
          void dialog.dismiss();
        });
      }
      await signIn(staffContext, staff);
      const staffApi = staffContext.request;

      // ---- The candidate: the exam page, the paper, the review dialog, the submitted screen ---------------------
      await candidatePage.goto(ada.joinUrl);
      await visit(candidatePage, dialogs, null, [TITLE, DESCRIPTION, RULES]);
      await candidatePage.getByRole("button", { name: "Start", exact: true }).click();
      await expect(candidatePage).toHaveURL(/\/attempts\/[0-9a-f-]{36}$/);
      const adaAttemptId = candidatePage.url().split("/").pop()!;
      const announced = await staffApi.post(`/api/proctor/exams/${exam.id}/announcements`, {
        headers: { "Idempotency-Key": randomUUID() },
        data: { message: ANNOUNCEMENT },
      });
      expect(announced.status(), await announced.text()).toBe(201);
      const extended = await staffApi.post(`/api/proctor/attempts/${adaAttemptId}/extend`, {
        headers: { "Idempotency-Key": randomUUID() },
        data: { seconds: 60, reason: EXTENSION_REASON },
      });
      expect(extended.status(), await extended.text()).toBeLessThan(300);
      await visit(candidatePage, dialogs, null, [TITLE, ESSAY_PROMPT, CHOICE_PROMPT, ...OPTIONS, SHORT_PROMPT]);
      await visit(candidatePage, dialogs, null, [ANNOUNCEMENT]);
      const questions = candidatePage.getByRole("article");
      await questions.nth(0).getByRole("textbox").fill(ESSAY_ANSWER);
      await questions.nth(1).getByLabel(OPTIONS[1]!).check();
      await questions.nth(2).getByRole("textbox").fill(SHORT_ANSWER);
      await expect(candidatePage.getByText("Saved to server", { exact: true })).toHaveCount(3);
      await candidatePage.getByRole("button", { name: "Review and submit" }).first().click();
      const review = candidatePage.getByRole("dialog", { name: "Review and submit" });
      await visit(candidatePage, dialogs, null, [ESSAY_PROMPT, SHORT_PROMPT]);
      await review.getByRole("button", { name: "Submit now" }).click();
      await expect(candidatePage.getByRole("heading", { name: "Your answers were submitted" })).toBeVisible({
        timeout: 10_000,
      });
      await visit(candidatePage, dialogs, null, [TITLE]);
      const [receiptDownload] = await Promise.all([
        candidatePage.waitForEvent("download"),
        candidatePage.getByRole("button", { name: "Download receipt" }).click(),
      ]);
      const receiptText = await readFile((await receiptDownload.path())!, "utf8");
      await visit(candidatePage, dialogs, `/attempts/${adaAttemptId}/paper`, [
        TITLE,
        ESSAY_PROMPT,
        OPTIONS[1]!,
        SHORT_ANSWER,
        ESSAY_ANSWER,
      ]);

      // ---- A second candidate through the API: force-submitted, then a late answer rejected with a reason -------
      const leeApi = await startThroughApi(server.baseURL, exam.id, lee);
      try {
        const saved = await leeApi.request.post(`/api/attempts/${leeApi.attemptId}/answers`, {
          data: {
            deviceId: "laptop",
            answers: [
              { questionId: essayId, value: FORMULA_PAYLOADS[4].text, version: 1 },
              { questionId: shortId, value: FORMULA_PAYLOADS[5].text, version: 1 },
            ],
          },
        });
        expect(saved.status(), await saved.text()).toBe(200);
        const forced = await staffApi.post(`/api/proctor/attempts/${leeApi.attemptId}/force-submit`, {
          headers: { "Idempotency-Key": randomUUID() },
          data: { reason: FORCE_REASON },
        });
        expect(forced.status(), await forced.text()).toBe(200);
        const late = await leeApi.request.post(`/api/attempts/${leeApi.attemptId}/answers`, {
          data: { deviceId: "phone", answers: [{ questionId: choiceId, value: "b", version: 2 }] },
        });
        expect(late.status(), await late.text()).toBe(409);
      } finally {
        await leeApi.request.dispose();
      }
      const lateList = (await (await staffApi.get(`/api/admin/exams/${exam.id}/late-answers`)).json()) as {
        lateAnswers: { id: string }[];
      };
      const decided = await staffApi.post(
        `/api/admin/exams/${exam.id}/late-answers/${lateList.lateAnswers[0]!.id}/decision`,
        { data: { decision: "rejected", reason: LATE_REASON } },
      );
      expect(decided.status(), await decided.text()).toBe(201);

      // ---- Grading: a comment on each essay by the hostile-named admin ------------------------------------------
      for (const attemptId of [adaAttemptId, leeApi.attemptId]) {
        const graded = await staffApi.put(`/api/admin/exams/${exam.id}/grading/${essayId}/${attemptId}`, {
          data: { marker: "first", points: 3, comment: COMMENT, revision: 0 },
        });
        expect(graded.status(), await graded.text()).toBeLessThan(300);
      }

      // ---- Staff views ---------------------------------------------------------------------------------------
      await visit(page, dialogs, "/admin", [TITLE]);
      await visit(page, dialogs, `/admin/exams/${exam.id}`, [TITLE]);
      await visit(page, dialogs, `/admin/exams/${exam.id}/edit`, []);
      for (const value of [TITLE, DESCRIPTION, RULES, ESSAY_PROMPT, CHOICE_PROMPT, ...OPTIONS, SHORT_PROMPT]) {
        expect(
          await page.evaluate(
            (wanted) =>
              [...document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input, textarea")].some(
                (field) => field.value === wanted,
              ),
            value,
          ),
          `the editor holds ${value}`,
        ).toBe(true);
      }
      await expectNothingRan(page, dialogs, "editor");
      await visit(page, dialogs, `/admin/exams/${exam.id}/candidates`, [ADA, LATE, ...CSV_NAMES]);
      await visit(page, dialogs, `/admin/exams/${exam.id}/candidates/slips`, [ADA, LATE]);
      await visit(page, dialogs, `/admin/exams/${exam.id}/grading`, [ESSAY_PROMPT]);
      await visit(page, dialogs, `/admin/exams/${exam.id}/grading/${essayId}?marker=first`, [ESSAY_PROMPT]);
      for (let step = 0; step < 2 && !(await page.getByText(ESSAY_ANSWER).isVisible()); step += 1) {
        await page.locator("h1").click();
        await page.keyboard.press("j");
      }
      await visit(page, dialogs, null, [ESSAY_ANSWER]);
      await visit(page, dialogs, `/admin/exams/${exam.id}/grading/disagreements`, []);
      await visit(page, dialogs, `/admin/exams/${exam.id}/late-answers`, [TITLE, LATE, LATE_REASON, STAFF_NAME]);
      await visit(page, dialogs, `/admin/exams/${exam.id}/results`, [ADA, LATE]);
      await visit(page, dialogs, `/admin/attempts/${adaAttemptId}/result`, [TITLE, ADA, COMMENT]);
      await visit(page, dialogs, `/admin/audit?examId=${exam.id}`, [STAFF_NAME]);
      await visit(page, dialogs, "/admin/receipts", []);
      await page.getByLabel("Receipt file contents").fill(receiptText);
      await page.getByRole("button", { name: "Verify", exact: true }).click();
      await visit(page, dialogs, null, [TITLE, ADA]);
      await visit(page, dialogs, `/admin/exams/${exam.id}/webhooks`, [WEBHOOK_URL]);
      await visit(page, dialogs, `/admin/webhooks/deliveries?examId=${exam.id}`, []);

      // ---- The proctor dashboard, paused with a hostile reason; the drawer and its timeline -------------------------
      const paused = await staffApi.post(`/api/proctor/exams/${exam.id}/pause`, { data: { reason: PAUSE_REASON } });
      expect(paused.status(), await paused.text()).toBe(200);
      await visit(page, dialogs, `/proctor/exams/${exam.id}`, [TITLE, ADA, LATE, PAUSE_REASON, ANNOUNCEMENT]);
      await page.getByRole("table", { name: "Candidates" }).getByRole("row").filter({ hasText: ADA }).click();
      await visit(page, dialogs, null, [EXTENSION_REASON]);
      await expect(page.getByRole("dialog", { name: ADA })).toBeVisible();
      const resumed = await staffApi.post(`/api/proctor/exams/${exam.id}/resume`, { data: {} });
      expect(resumed.status(), await resumed.text()).toBe(200);

      // ---- Released: the candidate's result shows the comment as text ------------------------------------------
      const released = await staffApi.post(`/api/admin/exams/${exam.id}/results/release`);
      expect(released.status(), await released.text()).toBeLessThan(300);
      await visit(candidatePage, dialogs, `/attempts/${adaAttemptId}/result`, [TITLE, ESSAY_PROMPT, COMMENT]);

      // ---- Every CSV export: formulas kept as text, the text itself intact ------------------------------------
      const exports = [
        `/api/admin/exams/${exam.id}/results.csv`,
        `/api/admin/exams/${exam.id}/answers.csv`,
        `/api/admin/exams/${exam.id}/candidates/join-links.csv`,
        `/api/admin/audit?examId=${exam.id}&format=csv`,
      ];
      const seen = new Set<string>();
      for (const path of exports) {
        const cells = await csvCells(staffApi, path);
        for (const cell of cells) expect(cell, `${path}: a cell a spreadsheet would run`).not.toMatch(FORMULA_TRIGGER);
        for (const cell of cells) seen.add(cell);
      }
      for (const name of CSV_NAMES) expect([...seen], `the name ${name}`).toContain(`'${name}`);
      for (const answer of [FORMULA_PAYLOADS[4].text, FORMULA_PAYLOADS[5].text]) {
        expect([...seen], `the answer ${JSON.stringify(answer)}`).toContain(`'${answer}`);
      }
      expect([...seen].some((cell) => cell.includes(ESSAY_ANSWER))).toBe(true);
      expect([...seen].some((cell) => cell.includes(ADA))).toBe(true);
    } finally {
      await candidateContext.close();
      await staffContext.close();
    }
  });
});
