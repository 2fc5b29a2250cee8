// What every simulated candidate remembers about its own run: each edit it made (question, value,
// version, device) and each answer the server gave it. The checker (bench/lib/checking/checker.ts) compares
// these ledgers with the final state the server holds; nothing else is trusted.
import type { AnswerValue } from "../../../lib/shared/schemas/attempts";
import type { HttpResult } from "../load/http-client";

export type LedgerEdit = {
  questionId: string;
  value: AnswerValue;
  version: number;
  deviceId: string;
  /** Milliseconds since the run started. */
  atMs: number;
};

/** The server's 200 to one submit request, as the candidate saw it. */
export type SubmitAnswer = {
  submissionId: string;
  digest: string;
  clientDigest: string | null;
  digestMatches: boolean | null;
  isReplay: boolean;
};

export type CandidateLedger = {
  /** Index in the population, for messages. */
  index: number;
  email: string;
  attemptId: string | null;
  devices: string[];
  edits: LedgerEdit[];
  /**
   * Edits made on a stale tab after this candidate's submit was answered (chaos `--late-edit-share`).
   * They belong in late answers, never in the frozen paper, so nothing is owed for them.
   */
  lateEdits: LedgerEdit[];
  /**
   * Per question, the greatest (version, deviceId) the server said it applied or already held
   * (`applied` / `duplicate` results): a later server state below it is a stale overwrite.
   */
  acknowledged: Map<string, { version: number; deviceId: string }>;
  /** Every 200 to a submit this candidate sent (several when responses were dropped and retried). */
  submitAnswers: SubmitAnswer[];
  /** A 409 ALREADY_SUBMITTED to our own submit (another key won): the submission id it named. */
  submittedElsewhere: string | null;
  /** Why the candidate stopped early, if it did (a final 4xx, the run's time limit). */
  failure: string | null;
};

export function newLedger(index: number, email: string): CandidateLedger {
  return {
    index,
    email,
    attemptId: null,
    devices: [],
    edits: [],
    lateEdits: [],
    acknowledged: new Map(),
    submitAnswers: [],
    submittedElsewhere: null,
    failure: null,
  };
}

/** The order of the apply rule: version first, then deviceId compared as bytes (COLLATE "C"). */
export function compareStamp(
  a: { version: number; deviceId: string },
  b: { version: number; deviceId: string },
): number {
  if (a.version !== b.version) return a.version - b.version;
  return a.deviceId < b.deviceId ? -1 : a.deviceId > b.deviceId ? 1 : 0;
}

export function recordAcknowledged(
  ledger: CandidateLedger,
  questionId: string,
  stamp: { version: number; deviceId: string },
): void {
  const known = ledger.acknowledged.get(questionId);
  if (!known || compareStamp(stamp, known) > 0)
    ledger.acknowledged.set(questionId, { version: stamp.version, deviceId: stamp.deviceId });
}

/** Keeps a 200 to a submit: the submission it names, and whether the server says it was a replay. */
export function recordSubmitAnswer(ledger: CandidateLedger, result: HttpResult): void {
  const answer = JSON.parse(result.body) as {
    submissionId: string;
    digest: string;
    clientDigest?: string | null;
    digestMatches?: boolean | null;
  };
  ledger.submitAnswers.push({
    submissionId: answer.submissionId,
    digest: answer.digest,
    clientDigest: answer.clientDigest ?? null,
    digestMatches: answer.digestMatches ?? null,
    isReplay: result.headers["idempotent-replayed"] === "true",
  });
}
