import type { APIRequestContext, Page } from "@playwright/test";

import type { Messages } from "../../messages";
import { expect, type Candidate } from "../fixtures";

// What the exam specs share: how a candidate reaches their exam page, where each question is, and what the
// server holds (read through the candidate's own API, with the browser context's session cookie).

export const ATTEMPT_URL = /\/attempts\/([0-9a-f-]{36})$/;

/** Opens the candidate's join link and presses Start (or Resume, on a second device); returns the attempt id. */
export async function openExam(page: Page, candidate: Candidate): Promise<string> {
  await page.goto(candidate.joinUrl);
  await page.getByRole("button", { name: /^(Start|Resume)$/ }).click();
  await expect(page).toHaveURL(ATTEMPT_URL);
  await expectReady(page);
  return attemptIdOf(page);
}

export function attemptIdOf(page: Page): string {
  const match = ATTEMPT_URL.exec(new URL(page.url()).pathname);
  if (!match?.[1]) throw new Error(`not an attempt page: ${page.url()}`);
  return match[1];
}

/** The page has read this device's store: the answer fields are editable. */
export async function expectReady(page: Page) {
  await expect(page.getByText("Opening your answers on this device…")).toHaveCount(0);
  await expect(question(page, 3).getByLabel("Your answer")).toBeEditable();
}

/**
 * A question of the exam page (or of the submitted paper) by its position: its article is named by its heading,
 * "Question 3". The exam specs read English; the screens pass the words of the language they are seen in.
 */
export function question(page: Page, position: number, words?: Messages) {
  const heading = words?.common.question.heading ?? "Question {position}";
  return page.getByRole("article", { name: heading.replace("{position}", String(position)), exact: true });
}

/** Waits until each of these questions says its answer is on the server (in the screen's words, as `question`). */
export async function expectSaved(page: Page, positions: number[], words?: Messages) {
  const saved = words?.exam.saveStatus.saved ?? "Saved to server";
  for (const position of positions) {
    await expect(question(page, position, words).getByText(saved, { exact: true })).toBeVisible();
  }
}

type ServerAnswer = { questionId: string; value: unknown; version: number; deviceId: string };

/** The server's answers of the attempt, by question id: GET /api/attempts/{id} with the candidate's cookie. */
export async function serverAnswers(request: APIRequestContext, attemptId: string): Promise<Record<string, unknown>> {
  const response = await request.get(`/api/attempts/${attemptId}`);
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { answers: ServerAnswer[] };
  return Object.fromEntries(body.answers.map((answer) => [answer.questionId, answer.value]));
}

/** A question's draft as this device's IndexedDB holds it (read beside the page's own connection). */
export async function storedDraft(page: Page, attemptId: string, questionId: string): Promise<string | null> {
  return page.evaluate(
    ([attempt, question]) =>
      new Promise<string | null>((resolve, reject) => {
        const open = indexedDB.open("holdfast");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const get = db.transaction("drafts", "readonly").objectStore("drafts").get([attempt, question]);
          get.onerror = () => reject(get.error);
          get.onsuccess = () => {
            db.close();
            const draft = get.result as { value?: unknown } | undefined;
            resolve(typeof draft?.value === "string" ? draft.value : null);
          };
        };
      }),
    [attemptId, questionId] as const,
  );
}

/**
 * What a page of a newer release does to this device's store: opens it at a higher version than this release's
 * (from `page`, any page of the same origin and browser context). Resolves with the version once the upgrade is
 * done, which needs every exam tab of this release to let its connection go.
 */
export async function upgradeStoreAsNewerRelease(page: Page, version = 1_000): Promise<number> {
  return page.evaluate(
    (to) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open("holdfast", to);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const reached = open.result.version;
          open.result.close();
          resolve(reached);
        };
      }),
    version,
  );
}

/**
 * What the worker does not keep yet, of this page and the scripts and stylesheets it loaded: empty once an
 * offline reload can work.
 */
export async function missingForOffline(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    if (!navigator.serviceWorker.controller) return ["(the worker does not control this page yet)"];
    const assets = performance
      .getEntriesByType("resource")
      .map((entry) => new URL(entry.name))
      .filter((url) => url.origin === location.origin && url.pathname.startsWith("/_next/static/"))
      .map((url) => url.href);
    const wanted = [location.pathname, ...assets];
    const found = await Promise.all(wanted.map((key) => caches.match(key, { ignoreVary: true })));
    return wanted.filter((_key, index) => found[index] === undefined);
  });
}
