import type { AnswerValue } from "@/lib/shared/schemas/attempts";
import { AutosaveResponseSchema } from "@/lib/shared/schemas/sync-responses";

import { recordClosed } from "../offline/attempts";
import type { DraftRecord } from "../offline/db";
import { listDirty, markAcknowledged, markDeliveredLate, markRejected } from "../offline/drafts";
import { clockOffsetMs } from "./clock";
import { unreadable, type JobOutcome } from "./job-outcome";
import { classify, recordedError, utf8Length, type SyncKernel } from "./kernel";

/** Error codes of a final 4xx that are about the answers sent, so the drafts are marked rejected (step F6). */
const ANSWER_PROBLEM_STATUSES = new Set([400, 413, 422]);

const ISSUE_PATH = /^answers\.(\d+)(?:\.|$)/;

/** The indexes of `answers.N…` in a 422's `details.issues`. */
function issueIndexes(details: Record<string, unknown> | null): number[] {
  const issues = details?.issues;
  if (!Array.isArray(issues)) return [];
  const indexes = new Set<number>();
  for (const issue of issues as unknown[]) {
    const path = typeof issue === "object" && issue !== null ? (issue as { path?: unknown }).path : undefined;
    const match = typeof path === "string" ? ISSUE_PATH.exec(path) : null;
    if (match?.[1] !== undefined) indexes.add(Number(match[1]));
  }
  return [...indexes];
}

/** The autosave job of the pump: the dirty drafts from IndexedDB. */
export async function runAutosaveJob(kernel: SyncKernel, sending: Map<string, number>): Promise<JobOutcome> {
  const dirty = await listDirty(kernel.db, kernel.attemptId);
  if (dirty.length > 0) return runAutosave(kernel, dirty, false, sending);
  // The in-memory copy said there was work and IndexedDB says not: re-read it, so the pump cannot spin.
  await kernel.reloadAll();
  return { kind: "skipped" };
}

/**
 * F2 — one autosave: the dirty drafts (oldest first, under the body budget) as one delta; each sent version is
 * recorded in `sending`. F3 — classify the answer per the retry discipline; F4 — acknowledge (200), F5 — closed
 * (409), F6 — final 4xx.
 */
export async function runAutosave(
  kernel: SyncKernel,
  dirty: readonly DraftRecord[],
  keepalive: boolean,
  sending: Map<string, number>,
): Promise<JobOutcome> {
  const deviceId = kernel.deviceId;
  if (!deviceId || dirty.length === 0) return { kind: "skipped" };
  const budget = keepalive ? kernel.config.keepaliveMaxBytes : kernel.config.maxDeltaBytes;
  const sent: DraftRecord[] = [];
  const answers: { questionId: string; value: AnswerValue; version: number; editedAt: string }[] = [];
  let size = utf8Length(JSON.stringify({ deviceId, answers: [] }));
  for (const draft of dirty) {
    const item = {
      questionId: draft.questionId,
      value: draft.value,
      version: draft.version,
      editedAt: new Date(draft.editedAt).toISOString(),
    };
    const itemSize = utf8Length(JSON.stringify(item)) + 1;
    if (size + itemSize > budget) {
      if (keepalive) continue; // A keepalive body has a hard cap: send the edits that fit.
      if (sent.length > 0) break; // The rest goes in the next request; one answer alone always fits the server's limit.
    }
    sent.push(draft);
    answers.push(item);
    size += itemSize;
  }
  if (sent.length === 0) return { kind: "skipped" };
  for (const draft of sent) sending.set(draft.questionId, draft.version);

  // The device's status rides along when a report is due (ADR 022): one request where there were two. A keepalive
  // body without room for it goes without (the server's 1 MB limit leaves room over an ordinary body's budget).
  let device = kernel.statusReporter?.statusForAutosave(sent.length);
  if (device && keepalive && size + utf8Length(JSON.stringify({ device })) > budget) device = undefined;
  const sentAt = kernel.now();
  const outcome = await kernel.request("POST", "/answers", JSON.stringify({ deviceId, answers, device }), {
    keepalive,
  });
  const receivedAt = kernel.now();
  const verdict = classify(outcome);

  if (verdict === "ok") {
    const parsed = AutosaveResponseSchema.safeParse(outcome.kind === "answer" ? outcome.body : null);
    if (!parsed.success) return unreadable("unreadable autosave answer");
    const response = parsed.data;
    // F4.
    const changed = await kernel.serial(async () => {
      const result = await markAcknowledged(kernel.db, {
        attemptId: kernel.attemptId,
        deviceId,
        response,
        facts: {
          serverTime: response.serverTime,
          deadline: response.deadline,
          serverOffsetMs: clockOffsetMs(Date.parse(response.serverTime), sentAt, receivedAt),
        },
        now: receivedAt,
      });
      kernel.attempt = result.attempt;
      for (const draft of result.drafts) kernel.drafts.set(draft.questionId, draft);
      return result.drafts;
    });
    if (device) kernel.statusReporter?.delivered(device);
    return {
      kind: "answered",
      changed: changed.map((draft) => draft.questionId),
      // Nothing moved (every sent draft was edited again meanwhile): wait for that edit's debounce, never spin.
      ...(changed.length === 0 ? { pauseMs: kernel.config.debounceMs } : {}),
    };
  }
  if (verdict === "retry" || outcome.kind !== "answer") return { kind: "retry", outcome };

  if (verdict === "closed") {
    // F5. The attempt is frozen and the server kept this delta as late answers: those drafts are delivered
    // (marked late, kept on the device). Stop sending; a read of the attempt brings the submission's facts.
    const details = outcome.details ?? {};
    const serverTime = typeof details.serverTime === "string" ? details.serverTime : null;
    const deadline = typeof details.deadline === "string" ? details.deadline : undefined;
    await kernel.serial(async () => {
      kernel.attempt = await recordClosed(kernel.db, {
        attemptId: kernel.attemptId,
        closed: {
          reason: outcome.code === "DEADLINE_PASSED" ? "DEADLINE_PASSED" : "ALREADY_SUBMITTED",
          submissionId: typeof details.submissionId === "string" ? details.submissionId : null,
          at: receivedAt,
        },
        facts: serverTime ? { serverTime, deadline } : null,
      });
      const late = await markDeliveredLate(kernel.db, {
        attemptId: kernel.attemptId,
        items: sent.map((draft) => ({ questionId: draft.questionId, version: draft.version })),
        at: receivedAt,
      });
      for (const draft of late) kernel.drafts.set(draft.questionId, draft);
      return late;
    });
    return { kind: "answered", needsMerge: true, changed: [] };
  }

  // F6. Final: not retried. About the answers → those drafts are marked rejected (kept, shown, not resent
  // until edited). About the session or the attempt (401, 403, 404 …) → sending stops until a reload or a
  // "retry now"; the drafts stay pending, because nothing is wrong with them.
  const error = recordedError(outcome);
  if (!ANSWER_PROBLEM_STATUSES.has(outcome.status)) return { kind: "blocked", error };
  const named = issueIndexes(outcome.details);
  const items = (
    named.length > 0 ? named.map((index) => sent[index]).filter((draft) => draft !== undefined) : sent
  ).map((draft) => ({ questionId: draft.questionId, version: draft.version }));
  const changed = await kernel.serial(async () => {
    const rows = await markRejected(kernel.db, { attemptId: kernel.attemptId, items, error });
    for (const draft of rows) kernel.drafts.set(draft.questionId, draft);
    return rows;
  });
  return { kind: "answered", changed: changed.map((draft) => draft.questionId) };
}
