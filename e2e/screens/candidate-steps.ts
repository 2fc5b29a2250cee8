import type { BrowserContext, Page } from "@playwright/test";

import type { Messages } from "../../messages";
import { expect } from "../fixtures";

// Steps the candidate's screens share (not a screen: the registry loads only `*.screen.ts`).

/** Starts the signed-in candidate's attempt through their own API (what pressing Start does); returns its id. */
export async function startAttempt(context: BrowserContext, examId: string): Promise<string> {
  const started = await context.request.post(`/api/exams/${examId}/attempts`);
  expect([200, 201], await started.text()).toContain(started.status());
  return ((await started.json()) as { attemptId: string }).attemptId;
}

/** The exam page has read this device's store: the first text answer can be typed into. */
export async function expectExamReady(page: Page, words: Messages): Promise<void> {
  await expect(page.getByRole("textbox", { name: words.exam.answer.label }).first()).toBeEditable();
}
