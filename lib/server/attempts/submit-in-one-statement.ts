import "server-only";

import { acceptsUntil } from "@/lib/shared/deadline";
import { answersDigest } from "@/lib/shared/digest";
import { AppError } from "@/lib/shared/errors";
import type { AnswerValue } from "@/lib/shared/schemas/attempts";
import type { SubmitResponse } from "@/lib/shared/schemas/sync";
import { compareEdits } from "@/lib/shared/versions";

import type { ValidatedAnswer } from "../answers/validate-delta";
import { sessionHashToCheck, settleSessionCheck, type CandidatePrincipal } from "../auth/sessions";
import { isLockTimeout } from "../db/errors";
import { queryRows } from "../db/sql";
import { fileStatement } from "../db/statement-files";
import { rememberAcceptsUntil } from "../limits/accepts-until";
import { publishAttemptSubmitted } from "../live/exam-bus";
import type { AttemptForWrite } from "./load-attempt-for-write";
import { examQuestions } from "./load-attempt-for-write";
import { submissionWrites } from "./freeze-attempt";

type StoredAnswer = { q: string; v: AnswerValue; n: number; d: string };

/** The attempt as read-paper-for-submit.sql reads it: what a write needs, plus the paper and the row's version. */
export type PaperForSubmit = AttemptForWrite & {
  examId: string;
  enrollmentId: string;
  isPaused: boolean;
  /** The attempt row's xmin: submit-attempt.sql freezes only if the row is still at it. */
  rowVersion: string;
  /** This Idempotency-Key made a submission an admin has since reopened (ADR 017). */
  isStaleKey: boolean;
  paper: StoredAnswer[];
};

/**
 * The attempt, scoped to the caller's enrollment (someone else's attempt id is a 404, like a missing one), with its
 * paper: one statement (lib/server/db/statements/read-paper-for-submit.sql), plus the exam's questions from the
 * per-process cache. Replaces loadAttemptForWrite on the submit path: the same round trip also brings the paper,
 * and checks the caller's session when the route did not read it (ADR 021): not valid any more → 401, nothing read.
 */
export async function readPaperForSubmit(options: {
  attemptId: string;
  candidate: Pick<CandidatePrincipal, "enrollmentId" | "sessionCheck">;
  idempotencyKey: string;
}): Promise<PaperForSubmit> {
  const { candidate } = options;
  const rows = await queryRows<{
    session: number;
    id: string | null;
    status: "in_progress" | "submitted";
    deadline: Date;
    exam_id: string;
    enrollment_id: string;
    grace_seconds: number;
    paused: boolean;
    row_version: string;
    submission_id: string | null;
    stale_key: boolean;
    paper: StoredAnswer[];
  }>(
    fileStatement("read-paper-for-submit", {
      attemptId: options.attemptId,
      enrollmentId: candidate.enrollmentId,
      idempotencyKey: options.idempotencyKey,
      sessionHash: sessionHashToCheck(candidate),
    }),
  );
  const row = rows[0];
  settleSessionCheck(candidate, row !== undefined && row.session === 1);
  if (!row || row.id === null) throw new AppError("NOT_FOUND", "No such attempt.");
  rememberAcceptsUntil(row.id, row.paused ? null : acceptsUntil(row.deadline, row.grace_seconds).getTime());
  return {
    id: row.id,
    status: row.status,
    deadline: row.deadline,
    acceptsUntil: acceptsUntil(row.deadline, row.grace_seconds),
    questions: await examQuestions(row.exam_id),
    submissionId: row.submission_id,
    examId: row.exam_id,
    enrollmentId: row.enrollment_id,
    isPaused: row.paused,
    rowVersion: row.row_version,
    isStaleKey: row.stale_key,
    paper: row.paper,
  };
}

/**
 * The paper the attempt will hold once `answers` is applied with the autosave rule: each incoming answer replaces
 * the stored one iff its `(version, deviceId)` is greater (device ids compared byte-wise, as the SQL's
 * COLLATE "C" does for the ASCII ids the contract allows).
 */
export function mergeDelta(
  paper: readonly StoredAnswer[],
  deviceId: string,
  answers: readonly ValidatedAnswer[],
): Map<string, AnswerValue> {
  const merged = new Map(paper.map((answer) => [answer.q, answer]));
  for (const answer of answers) {
    const stored = merged.get(answer.questionId);
    const isGreater =
      !stored || compareEdits({ version: answer.version, deviceId }, { version: stored.n, deviceId: stored.d }) > 0;
    if (isGreater)
      merged.set(answer.questionId, { q: answer.questionId, v: answer.value, n: answer.version, d: deviceId });
  }
  return new Map([...merged.values()].map((answer) => [answer.q, answer.v]));
}

/**
 * A candidate's first submit in ONE statement and no interactive transaction
 * (lib/server/db/statements/submit-attempt.sql): the final paper is computed here from the paper just read plus
 * the delta, so its digest, receipt and response are ready before the statement runs; the statement applies the
 * delta and then runs the freeze every path shares (freeze.sql: the submission, its result job, outbox and audit
 * rows, bound by submissionWrites as the locked path binds them), but only if the attempt row is still as it was
 * read (its xmin, under the row lock), still in progress and within deadline + grace, and not locked by anyone else
 * at this moment (NOWAIT). Returns null when it wrote nothing: the caller then takes the locked path, which decides
 * every other case (already frozen, overdue, a reopened key, a row changed in between).
 */
export async function trySubmitInOneStatement(options: {
  attempt: PaperForSubmit;
  deviceId: string;
  answers: readonly ValidatedAnswer[];
  idempotencyKey: string;
  requestHash: string;
  clientDigest: string | undefined;
}): Promise<{ response: SubmitResponse; text: string } | null> {
  const { attempt, deviceId, answers } = options;
  if (attempt.status !== "in_progress" || attempt.isStaleKey) return null;
  if (!attempt.isPaused && Date.now() > attempt.acceptsUntil.getTime()) return null;

  const paper = mergeDelta(attempt.paper, deviceId, answers);
  const writes = submissionWrites({
    attemptId: attempt.id,
    source: "candidate",
    actor: { type: "candidate", id: attempt.enrollmentId },
    digest: await answersDigest([...paper].map(([questionId, value]) => ({ questionId, value }))),
    answerCount: paper.size,
    deadline: attempt.deadline,
    idempotencyKey: options.idempotencyKey,
    requestHash: options.requestHash,
    clientDigest: options.clientDigest,
  });

  let rows: { created: number }[];
  try {
    rows = await queryRows<{ created: number }>(
      fileStatement("submit-attempt", {
        attemptId: attempt.id,
        rowVersion: attempt.rowVersion,
        questionIds: answers.map((answer) => answer.questionId),
        values: answers.map((answer) => JSON.stringify(answer.value)),
        versions: answers.map((answer) => answer.version),
        deviceId,
        ...writes.values,
      }),
    );
  } catch (error) {
    // The row is locked by someone else right now (NOWAIT): nothing was written; the locked path waits for it.
    if (isLockTimeout(error)) return null;
    throw error;
  }
  if (rows[0]?.created !== 1) return null;
  publishAttemptSubmitted({ examId: attempt.examId, enrollmentId: attempt.enrollmentId, attemptId: attempt.id });
  return { response: writes.response, text: writes.text };
}
