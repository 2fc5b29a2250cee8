import { answersDigest } from "@/lib/shared/digest";
import { SubmitResponseSchema } from "@/lib/shared/schemas/sync-responses";

import {
  draftSignature,
  recordSubmitError,
  recordSubmitted,
  recordSubmittedElsewhere,
  storeSubmitBody,
} from "../offline/attempts";
import { listDrafts } from "../offline/drafts";
import { unreadable, type JobOutcome } from "./job-outcome";
import { classify, recordedError, type SyncKernel } from "./kernel";

/**
 * S1 — take the final delta and store the body in one transaction, which locks editing in every tab. The digest
 * of the full local answer map is computed outside the transaction (Web Crypto is not IndexedDB); if another tab
 * wrote meanwhile, digest again.
 */
export function storeFinalDelta(kernel: SyncKernel): Promise<void> {
  return kernel.serial(async () => {
    for (;;) {
      const drafts = await listDrafts(kernel.db, kernel.attemptId);
      const digest = await answersDigest(drafts);
      const expected = new Map(drafts.map((draft) => [draft.questionId, draftSignature(draft)]));
      const outcome = await storeSubmitBody(kernel.db, {
        attemptId: kernel.attemptId,
        deviceId: kernel.deviceId!,
        digest,
        expected,
        now: kernel.now(),
      });
      if (outcome.kind === "changed") continue;
      if (outcome.kind === "stored" || outcome.kind === "already") kernel.attempt = outcome.attempt;
      return;
    }
  });
}

/** S5 — forget a final answer to the submit, so the stored body is sent again. */
export function clearSubmitErrorRecord(kernel: SyncKernel): Promise<void> {
  return kernel.serial(async () => {
    kernel.attempt = await recordSubmitError(kernel.db, { attemptId: kernel.attemptId, error: null });
  });
}

/**
 * S2 — send the stored body with the stored Idempotency-Key, byte for byte, however often. S3 — 200: keep
 * the response (the receipt). S4 — 409 ALREADY_SUBMITTED (or DEADLINE_PASSED): done elsewhere; fetch the
 * submission's facts. S5 — any other final answer: shown, the body kept, sent again on reload or a click.
 */
export async function runSubmitRequest(kernel: SyncKernel, keepalive: boolean): Promise<JobOutcome> {
  const attempt = kernel.attempt;
  if (!attempt?.submitBody || !kernel.deviceId) return { kind: "skipped" };
  const outcome = await kernel.request("POST", "/submit", attempt.submitBody, {
    keepalive,
    headers: { "Idempotency-Key": attempt.idempotencyKey },
    timeoutMs: kernel.config.submitTimeoutMs,
  });
  const receivedAt = kernel.now();
  const verdict = classify(outcome);
  if (verdict === "ok") {
    const parsed = SubmitResponseSchema.safeParse(outcome.kind === "answer" ? outcome.body : null);
    if (!parsed.success) return unreadable("unreadable submit answer");
    const response = parsed.data;
    await kernel.serial(async () => {
      const result = await recordSubmitted(kernel.db, {
        attemptId: kernel.attemptId,
        deviceId: kernel.deviceId!,
        response,
        // `submittedAt` is not the server's current time (a replay carries the first answer's): no clock facts.
        facts: null,
        now: receivedAt,
      });
      kernel.attempt = result.attempt;
      for (const draft of result.drafts) kernel.drafts.set(draft.questionId, draft);
    });
    return { kind: "answered", changed: null };
  }
  // A network failure always classifies as a retry.
  if (verdict === "retry" || outcome.kind !== "answer") return { kind: "retry", outcome };
  if (verdict === "closed") {
    const submissionId = typeof outcome.details?.submissionId === "string" ? outcome.details.submissionId : null;
    await kernel.serial(async () => {
      kernel.attempt = await recordSubmittedElsewhere(kernel.db, {
        attemptId: kernel.attemptId,
        info: { submissionId, submittedAt: null, digest: null },
        now: receivedAt,
      });
    });
    // S4: the GET brings the submission's time and digest.
    return { kind: "answered", needsMerge: true, changed: null };
  }
  const error = recordedError(outcome);
  await kernel.serial(async () => {
    kernel.attempt = await recordSubmitError(kernel.db, { attemptId: kernel.attemptId, error });
  });
  return { kind: "answered", changed: null };
}
