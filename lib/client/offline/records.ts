import type { AnswerValue } from "@/lib/shared/schemas/attempts";
import type { CandidateQuestion } from "@/lib/shared/schemas/exams";
import type { SubmitResponse } from "@/lib/shared/schemas/sync";

/**
 * The rows of the candidate's device-side store (docs/sync-protocol.md, "The client"), one type per table. The
 * tables and their keys: schema.ts; how the page reaches them: db.ts.
 */

export type SubmitState = "unsubmitted" | "submitting" | "submitted";

/** A server answer that is final for a request (not retried): kept to be shown. */
export type RecordedError = { status: number; code: string | null; message: string };

/** Why the attempt no longer accepts writes, as the server said it (409). */
export type ClosedInfo = {
  reason: "ALREADY_SUBMITTED" | "DEADLINE_PASSED";
  /** The attempt's one submission, when the server named it. */
  submissionId: string | null;
  /** When the device learned it (device clock, ms). */
  at: number;
  /** The submission's time and digest, once a read of the attempt brought them. */
  submittedAt?: string | null;
  digest?: string | null;
};

/** The submission made by someone else (another device, a proctor, the deadline) when ours got ALREADY_SUBMITTED. */
export type SubmittedElsewhere = {
  submissionId: string | null;
  submittedAt: string | null;
  digest: string | null;
};

/** The one row of `device`: this browser's device id (contract: "Identifiers and versions"). */
export type DeviceRecord = { key: "device"; deviceId: string; createdAt: number };

/**
 * An attempt as the device knows it: its row of `attempts` with its question set from `papers`. The page and the
 * sync engine see this; the storage keeps the two apart (`StoredAttempt`, `PaperRecord`).
 */
export type AttemptRecord = StoredAttempt & {
  /** The question set, so the page renders offline. */
  questions: CandidateQuestion[];
};

/**
 * The row of `attempts`: everything about the attempt but its question set. Each edit reads and writes this row
 * (its Lamport clock, and the submit state it checks), so it stays small whatever the length of the paper: the
 * questions, prompts and options are in `papers`, written when a server view is saved and read when the page
 * loads, never on a keystroke.
 */
export type StoredAttempt = {
  attemptId: string;
  examId: string;
  examTitle: string;
  /** ISO instants from the server; the device clock never decides. */
  deadline: string;
  acceptsUntil: string;
  /**
   * `serverTime` of the freshest server answer the deadline (and `acceptsUntil`) came from; older answers do not
   * overwrite them.
   */
  serverTimeSeen: string;
  /** Server time − device time, estimated at the midpoint of the last request. */
  serverOffsetMs: number;
  /** The Lamport clock: the highest answer version this device has seen for the attempt. */
  clock: number;
  /** Made once, when this record is first created; every submit retry, also after a reload, sends it. */
  idempotencyKey: string;
  submitState: SubmitState;
  /** The exact request body (JSON text) stored at the first Submit click; every retry sends these bytes. */
  submitBody: string | null;
  /** The device's digest inside `submitBody`. */
  submitDigest: string | null;
  submitResponse: SubmitResponse | null;
  submittedElsewhere: SubmittedElsewhere | null;
  /** The last final (non-retried) answer to the submit; the body is kept and can be sent again. */
  submitError: RecordedError | null;
  closed: ClosedInfo | null;
  /** The attempt revision of the last server answer this device merged or had acknowledged. */
  lastAckRevision: number;
  /** Device time (ms) of the last successful autosave, merge or submit. */
  lastSyncAt: number | null;
  /** Question ids the candidate flagged for review (local only). */
  flagged: string[];
  /**
   * The attempt's emergency-export public key (base64url), fetched while online so an emergency file can be
   * made offline (ADR 006). Not indexed, so adding it needed no schema version; absent on older records.
   */
  exportKey?: string;
  /**
   * A proctor's pause, as the server last said it (ADR 016): editing is locked and the clock stands still at
   * `deadline − pausedAt`; null while it runs. Not indexed (no schema version); absent on older records.
   */
  pause?: AttemptPause | null;
  /**
   * `serverTime` of the freshest server answer that said whether the attempt is paused; older ones do not
   * overwrite `pause`. Absent until one did (and on older records): the next one is taken.
   */
  pauseTimeSeen?: string;
};

/** The question set of an attempt (the row of `papers`), apart from the attempt's row that every edit rewrites. */
export type PaperRecord = { attemptId: string; questions: CandidateQuestion[] };

/** The attempt is paused: since when (server time) and the proctor's reason. */
export type AttemptPause = { pausedAt: string; reason: string };

export type DraftRecord = {
  attemptId: string;
  questionId: string;
  value: AnswerValue;
  version: number;
  /** Who made this value: this device for its own edits, another device for a value adopted from the server. */
  deviceId: string;
  /** 1 while the server has not acknowledged this version (IndexedDB cannot index booleans). */
  dirty: 0 | 1;
  /** Device time (ms) of the edit; 0 for a value adopted from the server. */
  editedAt: number;
  /** A final 4xx for this version: not sent again until the candidate edits the question again. */
  rejected: RecordedError | null;
  /**
   * Device time (ms) when this version reached the server after the attempt was frozen: the server kept it
   * as a late answer (409 on autosave). Not part of the paper, but not lost either. Absent otherwise.
   */
  lateAt?: number;
};

/** An announcement from staff, kept so the page shows it offline and after a reload (docs/sync-protocol.md). */
export type AnnouncementRecord = {
  attemptId: string;
  id: string;
  message: string;
  sentAt: string;
  /** 1 once the candidate dismissed it on this device (it can be shown again; the choice stays local). */
  dismissed: 0 | 1;
  /** 1 once the server recorded this device's receipt. */
  acknowledged: 0 | 1;
};

/** Each table's row. */
export type Records = {
  device: DeviceRecord;
  attempts: StoredAttempt;
  papers: PaperRecord;
  drafts: DraftRecord;
  announcements: AnnouncementRecord;
};
/** Each table's primary key. */
export type Keys = {
  device: "device";
  attempts: string;
  papers: string;
  drafts: [string, string];
  announcements: [string, string];
};
export type StoreName = keyof Records;
/** The secondary indexes, by table: name → key. */
export type Indexes = {
  device: never;
  attempts: never;
  papers: never;
  drafts: { attemptId: string; "[attemptId+dirty]": [string, 0 | 1] };
  announcements: { attemptId: string };
};
