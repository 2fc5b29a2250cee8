import type { AttemptView } from "@/lib/shared/schemas/attempts";
import type { SubmitResponse } from "@/lib/shared/schemas/sync";

import type {
  AttemptPause,
  AttemptRecord,
  ClosedInfo,
  DraftRecord,
  HoldfastDb,
  RecordedError,
  StoredAttempt,
  Stores,
  SubmittedElsewhere,
} from "./db";
import { listDrafts, markSubmittedDrafts, mergeServerAnswers, resendLateDrafts } from "./drafts";
import { getPaper, savePaper } from "./papers";
import { withServerFacts, type ServerFacts } from "./server-facts";

/**
 * Operations on `attempts`: one row per attempt this device has opened. Steps refer to docs/sync-protocol.md,
 * "The client".
 */

/** The attempt with its question set (`papers`), as the page shows it; undefined until a server view was saved. */
export async function getAttemptRecord(db: HoldfastDb, attemptId: string): Promise<AttemptRecord | undefined> {
  return db.transaction("r", ["attempts", "papers"], async (tx) => {
    const [attempt, paper] = await Promise.all([tx.attempts.get(attemptId), getPaper(tx, attemptId)]);
    return attempt && paper ? { ...attempt, questions: paper.questions } : undefined;
  });
}

/** The attempt's row alone, without its question set: what changes once the page has loaded. */
export async function getStoredAttempt(db: Stores, attemptId: string): Promise<StoredAttempt | undefined> {
  return db.attempts.get(attemptId);
}

/** A new local record for a server view. The submit's Idempotency-Key is made here, once, and never changed. */
function newStoredAttempt(view: AttemptView): StoredAttempt {
  return {
    attemptId: view.attemptId,
    examId: view.examId,
    examTitle: view.examTitle,
    deadline: view.deadline,
    acceptsUntil: view.acceptsUntil,
    serverTimeSeen: view.serverTime,
    serverOffsetMs: 0,
    clock: 0,
    idempotencyKey: globalThis.crypto.randomUUID(),
    submitState: "unsubmitted",
    submitBody: null,
    submitDigest: null,
    submitResponse: null,
    submittedElsewhere: null,
    submitError: null,
    closed: null,
    lastAckRevision: 0,
    lastSyncAt: null,
    flagged: [],
  };
}

/**
 * Steps L1–L3 — keep a server view of the attempt (from `GET /api/attempts/{id}` or the page's first render),
 * in one transaction: create the local record if this is the device's first sight of the attempt, save the
 * question set and time facts so the page renders offline, merge the answers (greater `(version, deviceId)`
 * wins) and move the clock to the highest version seen. A submission the server reports closes the attempt
 * locally, unless this device's own submit is under way (its stored request will get the answer). A live view
 * that shows the device's submission superseded opens the attempt again (isReopened).
 */
export async function saveServerView(
  db: HoldfastDb,
  input: { view: AttemptView; deviceId: string; serverOffsetMs: number | null; now: number; isSync: boolean },
): Promise<{ attempt: AttemptRecord; drafts: DraftRecord[] }> {
  const { view } = input;
  return db.transaction("rw", ["attempts", "papers", "drafts"], async (tx) => {
    const existing = await tx.attempts.get(view.attemptId);
    const base = existing ?? newStoredAttempt(view);
    const highest = await mergeServerAnswers(tx, {
      attemptId: view.attemptId,
      deviceId: input.deviceId,
      answers: view.answers,
      // Only a live GET is the server's state now; the page's render may be a kept copy of any age.
      isCurrent: input.isSync,
    });

    let next: StoredAttempt = withServerFacts(
      {
        ...base,
        examId: view.examId,
        examTitle: view.examTitle,
        clock: Math.max(base.clock, highest),
        lastAckRevision: Math.max(base.lastAckRevision, view.revision),
        lastSyncAt: input.isSync ? input.now : base.lastSyncAt,
      },
      {
        serverTime: view.serverTime,
        deadline: view.deadline,
        acceptsUntil: view.acceptsUntil,
        serverOffsetMs: input.serverOffsetMs,
        pause: pauseOfView(view),
      },
    );
    if (input.isSync && isReopened(base, view)) {
      next = withReopening(next);
      await resendLateDrafts(tx, view.attemptId);
    }
    if (view.status === "submitted" || view.submission) next = withSubmission(next, view.submission, input.now);
    await Promise.all([tx.attempts.put(next), savePaper(tx, { attemptId: view.attemptId, questions: view.questions })]);
    return { attempt: { ...next, questions: view.questions }, drafts: await listDrafts(tx, view.attemptId) };
  });
}

/** The view's pause as a server fact; undefined from a view kept by an older page, which does not say. */
export function pauseOfView(view: AttemptView): AttemptPause | null | undefined {
  if (view.pausedAt === undefined) return undefined;
  return view.pausedAt === null ? null : { pausedAt: view.pausedAt, reason: view.pauseReason ?? "" };
}

/**
 * The server holds the attempt in progress while this device holds it as submitted or closed: an admin
 * reopened it (ADR 017). Proven by the device's own submission appearing among the earlier ones; with no
 * submission id known (closed by a 409 that named none), by there being any. Only a live GET is trusted:
 * the page's render may be a kept copy from before the submit.
 */
function isReopened(record: StoredAttempt, view: AttemptView): boolean {
  if (view.status !== "in_progress") return false;
  if (record.submitState !== "submitted" && record.closed === null) return false;
  const earlier = view.earlierSubmissions ?? [];
  const submissionId =
    record.submitResponse?.submissionId ??
    record.submittedElsewhere?.submissionId ??
    record.closed?.submissionId ??
    null;
  return submissionId === null
    ? earlier.length > 0
    : earlier.some((submission) => submission.submissionId === submissionId);
}

/**
 * The record of a reopened attempt: open again, every submit fact cleared, and a NEW Idempotency-Key, so the
 * next Submit is a new request (the old key's retries replay the superseded submission). Drafts stay.
 */
function withReopening(record: StoredAttempt): StoredAttempt {
  return {
    ...record,
    idempotencyKey: globalThis.crypto.randomUUID(),
    submitState: "unsubmitted",
    submitBody: null,
    submitDigest: null,
    submitResponse: null,
    submittedElsewhere: null,
    submitError: null,
    closed: null,
  };
}

function withSubmission(record: StoredAttempt, submission: AttemptView["submission"], now: number): StoredAttempt {
  if (record.submitState === "submitting") return record;
  if (record.submitState === "submitted") {
    if (record.submitResponse || !submission) return record;
    return {
      ...record,
      submittedElsewhere: {
        submissionId: submission.submissionId,
        submittedAt: submission.submittedAt,
        digest: submission.digest,
      },
    };
  }
  const submissionId = submission?.submissionId ?? record.closed?.submissionId ?? null;
  return {
    ...record,
    closed: {
      reason: record.closed?.reason ?? "ALREADY_SUBMITTED",
      submissionId,
      at: record.closed?.at ?? now,
      submittedAt: submission?.submittedAt ?? record.closed?.submittedAt ?? null,
      digest: submission?.digest ?? record.closed?.digest ?? null,
    },
  };
}

/** A heartbeat's answer: time facts, and a submission made elsewhere closes the attempt (step H3). */
export async function applyHeartbeatFacts(
  db: HoldfastDb,
  input: { attemptId: string; facts: ServerFacts; isSubmitted: boolean; now: number },
): Promise<StoredAttempt | undefined> {
  return db.transaction(
    "rw",
    ["attempts"],
    async (tx) => {
      const attempt = await tx.attempts.get(input.attemptId);
      if (!attempt) return undefined;
      let next = withServerFacts(attempt, input.facts);
      if (input.isSubmitted && attempt.submitState === "unsubmitted" && !attempt.closed) {
        next = { ...next, closed: { reason: "ALREADY_SUBMITTED", submissionId: null, at: input.now } };
      }
      await tx.attempts.put(next);
      return next;
    },
    "relaxed",
  );
}

/** Step F5 — a 409 ALREADY_SUBMITTED / DEADLINE_PASSED on autosave: the attempt is frozen; drafts are kept. */
export async function recordClosed(
  db: HoldfastDb,
  input: { attemptId: string; closed: ClosedInfo; facts: ServerFacts | null },
): Promise<StoredAttempt> {
  return updateAttempt(db, input.attemptId, (attempt) => {
    const withFacts = input.facts ? withServerFacts(attempt, input.facts) : attempt;
    return { ...withFacts, closed: input.closed };
  });
}

export async function toggleFlag(
  db: HoldfastDb,
  input: { attemptId: string; questionId: string },
): Promise<StoredAttempt> {
  return updateAttempt(db, input.attemptId, (attempt) => ({
    ...attempt,
    flagged: attempt.flagged.includes(input.questionId)
      ? attempt.flagged.filter((id) => id !== input.questionId)
      : [...attempt.flagged, input.questionId],
  }));
}

/** The part of a draft that decides what the submit body holds; compared to make the submit transaction optimistic. */
export function draftSignature(draft: DraftRecord): string {
  return `${draft.version}|${draft.deviceId}|${draft.dirty}|${draft.rejected ? 1 : 0}`;
}

export type StoreSubmitOutcome =
  | { kind: "stored"; attempt: StoredAttempt }
  /** A draft changed (another tab's edit, an adopted server value) after the digest was computed: compute again. */
  | { kind: "changed" }
  /** Another tab (or an earlier click) stored the submit first. */
  | { kind: "already"; attempt: StoredAttempt }
  | { kind: "no-attempt" };

/**
 * Step S1 — the first Submit click, in one transaction: check that the drafts are still the ones the digest
 * (computed just before, since Web Crypto is not an IndexedDB request) was computed from, take the final delta
 * (every dirty draft not rejected), store the exact request body and `submitState = "submitting"`. From
 * this commit on every edit, in every tab, is refused, and every retry sends these bytes.
 */
export async function storeSubmitBody(
  db: HoldfastDb,
  input: { attemptId: string; deviceId: string; digest: string; expected: ReadonlyMap<string, string>; now: number },
): Promise<StoreSubmitOutcome> {
  return db.transaction("rw", ["attempts", "drafts"], async (tx): Promise<StoreSubmitOutcome> => {
    const attempt = await tx.attempts.get(input.attemptId);
    if (!attempt) return { kind: "no-attempt" };
    if (attempt.submitState !== "unsubmitted") return { kind: "already", attempt };
    const drafts = await listDrafts(tx, input.attemptId);
    if (drafts.length !== input.expected.size) return { kind: "changed" };
    if (drafts.some((draft) => input.expected.get(draft.questionId) !== draftSignature(draft)))
      return { kind: "changed" };

    const answers = drafts
      .filter((draft) => draft.dirty === 1 && draft.rejected === null && draft.deviceId === input.deviceId)
      .sort((a, b) => a.editedAt - b.editedAt)
      .map((draft) => ({
        questionId: draft.questionId,
        value: draft.value,
        version: draft.version,
        editedAt: new Date(draft.editedAt).toISOString(),
      }));
    const body = JSON.stringify({ deviceId: input.deviceId, answers, digest: input.digest });
    const next: StoredAttempt = {
      ...attempt,
      submitState: "submitting",
      submitBody: body,
      submitDigest: input.digest,
      submitError: null,
    };
    await tx.attempts.put(next);
    return { kind: "stored", attempt: next };
  });
}

/** The answers a stored submit body carries (it is our own JSON). */
export function submittedItems(submitBody: string): { questionId: string; version: number }[] {
  const parsed = JSON.parse(submitBody) as { answers?: { questionId: string; version: number }[] };
  return (parsed.answers ?? []).map((answer) => ({ questionId: answer.questionId, version: answer.version }));
}

/** Step S3 — a submit's 200: the response is kept (the receipt), the carried drafts are clean. */
export async function recordSubmitted(
  db: HoldfastDb,
  input: { attemptId: string; deviceId: string; response: SubmitResponse; facts: ServerFacts | null; now: number },
): Promise<{ attempt: StoredAttempt; drafts: DraftRecord[] }> {
  return db.transaction("rw", ["attempts", "drafts"], async (tx) => {
    const attempt = await tx.attempts.get(input.attemptId);
    if (!attempt) throw new Error(`attempt ${input.attemptId} is not stored on this device`);
    const sent = attempt.submitBody ? submittedItems(attempt.submitBody) : [];
    const drafts = await markSubmittedDrafts(tx, { attemptId: input.attemptId, deviceId: input.deviceId, sent });
    const base = input.facts ? withServerFacts(attempt, input.facts) : attempt;
    const next: StoredAttempt = {
      ...base,
      submitState: "submitted",
      submitResponse: input.response,
      submitError: null,
      closed: null,
      lastSyncAt: input.now,
    };
    await tx.attempts.put(next);
    return { attempt: next, drafts };
  });
}

/**
 * Step S4 — a submit answered 409 ALREADY_SUBMITTED (or DEADLINE_PASSED: the server auto-submitted): done.
 * The submission is someone else's (another device, a proctor, the deadline); the body's answers were kept
 * by the server as late answers, and the drafts stay as they are on the device.
 */
export async function recordSubmittedElsewhere(
  db: HoldfastDb,
  input: { attemptId: string; info: SubmittedElsewhere; now: number },
): Promise<StoredAttempt> {
  return updateAttempt(db, input.attemptId, (attempt) => ({
    ...attempt,
    submitState: "submitted",
    submittedElsewhere: input.info,
    submitError: null,
    lastSyncAt: input.now,
  }));
}

/** Step S5 — a final answer to the submit (or null to clear it before sending again). The stored body is kept. */
export async function recordSubmitError(
  db: HoldfastDb,
  input: { attemptId: string; error: RecordedError | null },
): Promise<StoredAttempt> {
  return updateAttempt(db, input.attemptId, (attempt) => ({ ...attempt, submitError: input.error }));
}

async function updateAttempt(
  db: HoldfastDb,
  attemptId: string,
  change: (attempt: StoredAttempt) => StoredAttempt,
): Promise<StoredAttempt> {
  return db.transaction("rw", ["attempts"], async (tx) => {
    const attempt = await tx.attempts.get(attemptId);
    if (!attempt) throw new Error(`attempt ${attemptId} is not stored on this device`);
    const next = change(attempt);
    await tx.attempts.put(next);
    return next;
  });
}
