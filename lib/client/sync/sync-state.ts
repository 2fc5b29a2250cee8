import type { BreakerKind } from "@/lib/shared/backoff";
import type { AnswerValue } from "@/lib/shared/schemas/attempts";
import type { CandidateQuestion } from "@/lib/shared/schemas/exams";
import type { SubmitResponse } from "@/lib/shared/schemas/sync";

import type { AttemptPause, ClosedInfo, RecordedError, SubmitState, SubmittedElsewhere } from "../offline/db";
import type { EditRefusal } from "../offline/drafts";

export type { AttemptPause, ClosedInfo, RecordedError, SubmitState, SubmittedElsewhere } from "../offline/db";

/**
 * Per question, what the candidate should be told: `saved` (the server holds this value), `pending` (safe on
 * this device, waiting to be sent), `rejected` (the server refused this value for good; kept on the device,
 * `message` says why), `late` (it reached the server after the attempt was frozen and is kept there as a
 * late answer, outside the submitted paper).
 */
export type AnswerSyncStatus = "saved" | "pending" | "rejected" | "late";

export type AnswerState = {
  value: AnswerValue;
  /** The Lamport version of this value; 0 while a brand-new edit is still being written to the device. */
  version: number;
  status: AnswerSyncStatus;
  message?: string;
  /** Device time (ms) of the edit; 0 for a value adopted from the server. */
  editedAt: number;
  /** The device that made this value. */
  deviceId: string;
};

export type ConnectionState = "ok" | "unstable" | "offline";

/** The leader tab's network view, shared with the other tabs of the attempt. */
export type NetStatus = {
  online: boolean;
  connection: ConnectionState;
  consecutiveFailures: number;
  retryAt: number | null;
  nextAttemptAt: number | null;
  breaker: BreakerKind;
  blocked: RecordedError | null;
};

/**
 * Everything the exam page shows about sync, as one immutable value (a new object on every change, the same
 * object otherwise, as React's useSyncExternalStore requires). Times are device-clock milliseconds; add
 * `serverOffsetMs` to get server time.
 */
export type SyncSnapshot = {
  attemptId: string;
  /** The device's store has been read (until then the snapshot shows the page's server render). */
  ready: boolean;
  /** The device's store could not be opened: answers cannot be kept on this device. */
  storageError: string | null;
  /**
   * A newer release of Holdfast, in another tab or a window opened since, upgraded the device's store: this page
   * stopped (another tab takes the sync role) and keeps nothing more until it is reloaded.
   */
  storeSuperseded: boolean;
  deviceId: string | null;
  examTitle: string | null;
  questions: readonly CandidateQuestion[];
  /** Answered questions only, keyed by question id. */
  answers: Readonly<Record<string, AnswerState>>;
  /** Edits on this device the server has not acknowledged yet (rejected ones not counted). */
  pendingCount: number;
  rejectedCount: number;
  /** Device time of the oldest pending edit, and its age when this snapshot was made. */
  oldestPendingAt: number | null;
  oldestPendingMs: number;
  /** `navigator.onLine`, and false after repeated network errors. */
  online: boolean;
  connection: ConnectionState;
  consecutiveFailures: number;
  /** Last successful autosave, merge or submit (device time). */
  lastSyncAt: number | null;
  /** Set after a 429: when the engine sends again ("server busy, retrying in N s"). */
  retryAt: number | null;
  /** When the next scheduled retry goes out, after any retry-class failure. */
  nextAttemptAt: number | null;
  breaker: BreakerKind;
  /** A final answer that is not about the answers (401, 403, 404 …): sending has stopped until a reload or "retry now". */
  blocked: RecordedError | null;
  submitState: SubmitState;
  submitResponse: SubmitResponse | null;
  submitError: RecordedError | null;
  submittedElsewhere: SubmittedElsewhere | null;
  /** The server's digest of the frozen paper differs from the one this device computed at the Submit click. */
  digestMismatch: boolean;
  /** The device's digest sent with the submit. */
  submitDigest: string | null;
  closed: ClosedInfo | null;
  deadline: string | null;
  acceptsUntil: string | null;
  /** A proctor paused the attempt (ADR 016): editing and submit are locked, the clock stands still. */
  pause: AttemptPause | null;
  serverOffsetMs: number;
  flagged: readonly string[];
  clock: number;
  lastAckRevision: number;
  /** This tab holds the attempt's sync role (one tab per attempt talks to the server). */
  isLeader: boolean;
};

export type EditResult =
  | { ok: true; version: number }
  | {
      ok: false;
      reason: EditRefusal | "not-ready" | "unknown-question" | "invalid" | "storage";
      message: string;
    };

export const EDIT_REFUSAL_MESSAGES: Record<Exclude<EditResult, { ok: true }>["reason"], string> = {
  "not-ready": "The exam is still loading on this device.",
  "no-attempt": "The exam is still loading on this device.",
  "unknown-question": "This question is not part of the exam.",
  invalid: "This answer is not valid for the question.",
  submitting: "Your exam is being submitted; answers can no longer change.",
  submitted: "Your exam has been submitted; answers can no longer change.",
  closed: "This exam is closed; answers can no longer change.",
  "version-limit": "This answer cannot be changed any more.",
  storage: "This device could not store your answer. Free some space or use another browser.",
};

export function sameValue(a: AnswerValue, b: AnswerValue): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => item === b[index]);
  }
  return a === b;
}
