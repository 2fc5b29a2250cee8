import type { AnswerValue, AttemptView } from "@/lib/shared/schemas/attempts";
import type { CandidateQuestion } from "@/lib/shared/schemas/exams";

import { pauseOfView } from "../offline/attempts";
import type { AttemptRecord, DraftRecord } from "../offline/db";
import { sameValue, type AnswerState, type NetStatus, type SyncSnapshot } from "./sync-state";

/** Everything the snapshot is built from: the engine's in-memory copy of IndexedDB plus its own state. */
export type SnapshotInput = {
  attemptId: string;
  ready: boolean;
  storageError: string | null;
  /** A newer release took the device's store: reload the page (db.ts, `StoreSupersededError`). */
  storeSuperseded: boolean;
  deviceId: string | null;
  attempt: AttemptRecord | null;
  /** The server's view from the page's render, shown until the device's own copy is read. */
  initialView: AttemptView | null;
  drafts: ReadonlyMap<string, DraftRecord>;
  /** Edits shown at once, before their IndexedDB write finished. */
  optimistic: ReadonlyMap<string, { value: AnswerValue; at: number }>;
  /** The network view to show: the leader's own, or the one it broadcast. */
  net: NetStatus;
  /** Device clock, ms. */
  now: number;
  submitRequested: boolean;
  isLeader: boolean;
};

function sameAnswerState(a: AnswerState, b: AnswerState): boolean {
  return (
    a.version === b.version &&
    a.status === b.status &&
    a.message === b.message &&
    a.deviceId === b.deviceId &&
    a.editedAt === b.editedAt &&
    sameValue(a.value, b.value)
  );
}

/**
 * The snapshot the page shows, from the engine's state. Pure apart from `cache`: an answer equal to the cached
 * one keeps the cached object (so React skips its card), and every answer built is recorded there.
 */
export function buildSnapshot(input: SnapshotInput, cache: Map<string, AnswerState>): SyncSnapshot {
  const { attempt, initialView: view, net, now } = input;
  const answers: Record<string, AnswerState> = {};
  let pendingCount = 0;
  let rejectedCount = 0;
  let oldestPendingAt: number | null = null;

  const put = (questionId: string, next: AnswerState) => {
    const cached = cache.get(questionId);
    const state = cached !== undefined && sameAnswerState(cached, next) ? cached : next;
    cache.set(questionId, state);
    answers[questionId] = state;
  };

  if (!input.ready && input.drafts.size === 0 && view) {
    for (const answer of view.answers) {
      put(answer.questionId, {
        value: answer.value,
        version: answer.version,
        status: "saved",
        editedAt: 0,
        deviceId: answer.deviceId,
      });
    }
  }
  for (const draft of input.drafts.values()) {
    const status = draft.rejected ? "rejected" : draft.dirty === 1 ? "pending" : draft.lateAt ? "late" : "saved";
    put(draft.questionId, {
      value: draft.value,
      version: draft.version,
      status,
      ...(draft.rejected ? { message: draft.rejected.message } : {}),
      editedAt: draft.editedAt,
      deviceId: draft.deviceId,
    });
  }
  for (const [questionId, shown] of input.optimistic) {
    const underlying = input.drafts.get(questionId);
    put(questionId, {
      value: shown.value,
      version: underlying?.version ?? 0,
      status: "pending",
      editedAt: shown.at,
      deviceId: input.deviceId ?? "",
    });
  }
  for (const state of Object.values(answers)) {
    if (state.status === "pending") {
      pendingCount += 1;
      if (oldestPendingAt === null || state.editedAt < oldestPendingAt) oldestPendingAt = state.editedAt;
    } else if (state.status === "rejected") {
      rejectedCount += 1;
    }
  }

  const submitState =
    input.submitRequested && attempt?.submitState === "unsubmitted"
      ? "submitting"
      : (attempt?.submitState ?? "unsubmitted");
  const serverDigest = attempt?.submitResponse?.digest ?? attempt?.submittedElsewhere?.digest ?? null;
  const submitDigest = attempt?.submitDigest ?? null;
  const questions: readonly CandidateQuestion[] = attempt?.questions ?? view?.questions ?? [];

  return {
    attemptId: input.attemptId,
    ready: input.ready,
    storageError: input.storageError,
    storeSuperseded: input.storeSuperseded,
    deviceId: input.deviceId,
    examTitle: attempt?.examTitle ?? view?.examTitle ?? null,
    questions,
    answers,
    pendingCount,
    rejectedCount,
    oldestPendingAt,
    oldestPendingMs: oldestPendingAt === null ? 0 : Math.max(0, now - oldestPendingAt),
    online: net.online,
    connection: net.connection,
    consecutiveFailures: net.consecutiveFailures,
    lastSyncAt: attempt?.lastSyncAt ?? null,
    retryAt: net.retryAt,
    nextAttemptAt: net.nextAttemptAt,
    breaker: net.breaker,
    blocked: net.blocked,
    submitState,
    submitResponse: attempt?.submitResponse ?? null,
    submitError: attempt?.submitError ?? null,
    submittedElsewhere: attempt?.submittedElsewhere ?? null,
    digestMismatch:
      attempt?.submitResponse?.digestMatches === false ||
      (serverDigest !== null && submitDigest !== null && serverDigest !== submitDigest),
    submitDigest,
    closed:
      attempt?.closed ??
      (!attempt && view?.submission
        ? { reason: "ALREADY_SUBMITTED", submissionId: view.submission.submissionId, at: 0 }
        : null),
    deadline: attempt?.deadline ?? view?.deadline ?? null,
    acceptsUntil: attempt?.acceptsUntil ?? view?.acceptsUntil ?? null,
    pause: (attempt ? attempt.pause : view ? pauseOfView(view) : null) ?? null,
    serverOffsetMs: attempt?.serverOffsetMs ?? 0,
    flagged: attempt?.flagged ?? [],
    clock: attempt?.clock ?? 0,
    lastAckRevision: attempt?.lastAckRevision ?? 0,
    isLeader: input.isLeader,
  };
}
