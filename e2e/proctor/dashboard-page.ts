import { createHash, randomUUID } from "node:crypto";

import { request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";

import type { Messages } from "../../messages";
import { expect, type Candidate } from "../fixtures";

// What the proctor specs share: the dashboard's landmarks, and candidates driven straight through the
// candidate API (a session from the join token, a started attempt, heartbeats, a submit), so a test can
// seed a class in several states without a browser per candidate.

export async function openDashboard(page: Page, examId: string) {
  await page.goto(`/proctor/exams/${examId}`);
  await expect(page.getByRole("status", { name: "Live updates" })).toContainText("Live");
}

/**
 * The table row of one candidate (names are unique per test). The proctor specs read English; the screens pass the
 * words of the language they are seen in.
 */
export function candidateRow(page: Page, name: string, words?: Messages) {
  const table = words?.proctor.table.label ?? "Candidates";
  return page.getByRole("table", { name: table }).getByRole("row").filter({ hasText: name });
}

/** The candidate drawer, open for `name`. */
export function drawer(page: Page, name: string) {
  return page.getByRole("dialog", { name });
}

export type ApiCandidate = { request: APIRequestContext; attemptId: string; deviceId: string };

/** Signs the candidate in with their join token and starts their attempt, all through the API. */
export async function startThroughApi(baseURL: string, examId: string, candidate: Candidate): Promise<ApiCandidate> {
  const request = await playwrightRequest.newContext({ baseURL });
  const session = await request.post("/api/session", { data: { joinToken: candidate.joinToken } });
  expect(session.status(), await session.text()).toBe(200);
  const started = await request.post(`/api/exams/${examId}/attempts`);
  expect([200, 201], await started.text()).toContain(started.status());
  const body = (await started.json()) as { attemptId: string };
  return { request, attemptId: body.attemptId, deviceId: `api-${randomUUID().slice(0, 8)}` };
}

export async function heartbeat(
  candidate: ApiCandidate,
  facts: { online: boolean; pending?: number; oldestPendingMs?: number; consecutiveFailures?: number },
) {
  const response = await candidate.request.post(`/api/attempts/${candidate.attemptId}/heartbeat`, {
    data: {
      deviceId: candidate.deviceId,
      online: facts.online,
      pending: facts.pending ?? 0,
      oldestPendingMs: facts.oldestPendingMs ?? 0,
      lastAckRevision: 0,
      clock: 0,
      consecutiveFailures: facts.consecutiveFailures ?? 0,
      storagePersisted: true,
    },
  });
  expect(response.status(), await response.text()).toBeLessThan(300);
}

/** The digest of an empty paper: sha256 of the canonical JSON `{}`. */
const EMPTY_DIGEST = createHash("sha256").update("{}").digest("hex");

/** Submits with no answers; `digestDiffers` sends a digest the server will not match. */
export async function submitThroughApi(candidate: ApiCandidate, options: { digestDiffers?: boolean } = {}) {
  const response = await candidate.request.post(`/api/attempts/${candidate.attemptId}/submit`, {
    headers: { "Idempotency-Key": randomUUID() },
    data: { deviceId: candidate.deviceId, answers: [], digest: options.digestDiffers ? "0".repeat(64) : EMPTY_DIGEST },
  });
  expect(response.status(), await response.text()).toBe(200);
}
