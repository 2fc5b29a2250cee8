import { Dexie, type Table } from "dexie";

import type { AnswerValue } from "@/lib/shared/schemas/attempts";
import type { CandidateQuestion } from "@/lib/shared/schemas/exams";
import type { SubmitResponse } from "@/lib/shared/schemas/sync";

/**
 * The candidate's device-side store (docs/sync-protocol.md, "The client"). Everything a candidate types is
 * written here first, in one transaction, before anything is sent; the sync engine only ever reads from
 * here what it sends. Schema changes add a `version(n)` block below the others; blocks are never edited
 * or deleted, so a browser holding an old database upgrades step by step without losing a draft.
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

export type AttemptRecord = {
  attemptId: string;
  examId: string;
  examTitle: string;
  /** The question set, so the page renders offline. */
  questions: CandidateQuestion[];
  /** ISO instants from the server; the device clock never decides. */
  deadline: string;
  acceptsUntil: string;
  /** `serverTime` of the freshest server answer these time facts came from; older answers do not overwrite them. */
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
};

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

export class HoldfastDb extends Dexie {
  declare readonly device: Table<DeviceRecord, "device">;
  declare readonly attempts: Table<AttemptRecord, string>;
  declare readonly drafts: Table<DraftRecord, [string, string]>;

  constructor(name = "holdfast") {
    // Strict durability: a committed draft is on disk, not in an OS buffer that a crash or a dead battery loses.
    super(name, { chromeTransactionDurability: "strict" });
    this.version(1).stores({
      device: "key",
      attempts: "attemptId",
      drafts: "[attemptId+questionId], attemptId, [attemptId+dirty]",
    });
  }
}

const memo = globalThis as unknown as { holdfastDb?: HoldfastDb };

/** The page's one connection to the database (memoised, so hot reloads and several engines share it). */
export function getDb(): HoldfastDb {
  memo.holdfastDb ??= new HoldfastDb();
  return memo.holdfastDb;
}
