import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { AnswerValue } from "@/lib/shared/schemas/attempts";
import type { DeviceStatus } from "@/lib/shared/schemas/device-status";
import type { AnswerResult, AutosaveResponse } from "@/lib/shared/schemas/sync";

import { autoSubmitAttempt } from "../attempts/auto-submit";
import { attemptBusy } from "../attempts/with-locked-attempt";
import { examQuestions, loadAttemptForWrite, timeDetails } from "../attempts/load-attempt-for-write";
import { sessionHashToCheck, settleSessionCheck, type CandidatePrincipal } from "../auth/sessions";
import { db } from "../db/client";
import { keepDeviceStatus } from "../heartbeats/record-heartbeat";
import { publishExamChange, type ExamChangeKind } from "../live/exam-bus";
import { log } from "../log";
import { applyAnswerDelta } from "./apply-answer-delta";
import { storeLateAnswers } from "./store-late-answers";
import { validateDelta, type ValidatedAnswer } from "./validate-delta";

/**
 * Versioned delta autosave (docs/sync-protocol.md, "Autosave"):
 *
 * 1. Validate the delta against the exam's questions (422, nothing applied). The candidate's session
 *    names the exam, and an enrollment's one attempt is always of that exam (start-attempt.ts), so the
 *    questions come from the per-exam cache before the attempt is read. A caller who names someone
 *    else's or no attempt still gets the 404 first, as the order of checks requires.
 * 2. Apply it in one statement, scoped to the caller's enrollment (404 when that finds no attempt):
 *    per answer, the greater (version, deviceId) wins. The same statement checks the caller's session when the
 *    route did not read it (route.ts, `foldsSessionCheck`): not valid any more is a 401 and nothing applied.
 * 3. Report per answer: applied, duplicate (this exact version is stored), or stale (the server holds a
 *    greater one, returned so the client adopts it).
 * 4. The device's status when the autosave carries one (ADR 022), kept as a heartbeat's would be, and the
 *    dashboards told in the same Redis transaction as its live copy (not before: it is about the delta just
 *    stored, and pending counts what is left after it).
 * 5. A frozen attempt keeps the delta as late answers and answers 409 ALREADY_SUBMITTED or
 *    DEADLINE_PASSED (auto-submitting first if the sweeper has not got to it yet), or 409 REQUEST_IN_PROGRESS
 *    (retried) when an admin reopened it in between.
 */
export async function saveAnswers(options: {
  attemptId: string;
  candidate: CandidatePrincipal;
  deviceId: string;
  answers: readonly { questionId: string; value: unknown; version: number; editedAt?: string }[];
  device?: DeviceStatus;
}): Promise<AutosaveResponse> {
  const { attemptId, candidate, deviceId } = options;
  // 1.
  let answers: ValidatedAnswer[];
  try {
    answers = validateDelta(options.answers, await examQuestions(candidate.examId));
  } catch (error) {
    await loadAttemptForWrite({ attemptId, enrollmentId: candidate.enrollmentId });
    throw error;
  }

  // 2. A session this process already knew is checked by the statement itself (route.ts, `foldsSessionCheck`).
  const outcome = await applyAnswerDelta(undefined, {
    attemptId,
    enrollmentId: candidate.enrollmentId,
    sessionHash: sessionHashToCheck(candidate),
    deviceId,
    answers,
  });
  settleSessionCheck(candidate, outcome.isSessionValid);
  if (!outcome.isFound) throw new AppError("NOT_FOUND", "No such attempt.");
  if (!outcome.isOpen) return refuseFrozen(candidate, attemptId, deviceId, answers);
  // 4.
  // The revision this delta made is the device's last acknowledged one once it reads this answer.
  const isApplied = outcome.applied.size > 0;
  if (options.device)
    await keepStatusOfAutosave(
      candidate,
      attemptId,
      { ...options.device, deviceId, lastAckRevision: outcome.revision },
      isApplied ? "saved" : "heartbeat",
    );
  else if (isApplied) publishExamChange(candidate.examId, candidate.enrollmentId, "saved");

  // 3.
  const notApplied = answers.filter((answer) => !outcome.applied.has(answer.questionId));
  const stored = notApplied.length
    ? await db.answer.findMany({
        where: { attemptId, questionId: { in: notApplied.map((answer) => answer.questionId) } },
        select: { questionId: true, value: true, version: true, deviceId: true },
      })
    : [];
  const storedById = new Map(stored.map((row) => [row.questionId, row]));
  const results: AnswerResult[] = answers.map((answer) => {
    if (outcome.applied.has(answer.questionId))
      return { questionId: answer.questionId, status: "applied", version: answer.version };
    const row = storedById.get(answer.questionId);
    if (row && row.version === answer.version && row.deviceId === deviceId) {
      return { questionId: answer.questionId, status: "duplicate", version: answer.version };
    }
    if (!row) throw new Error(`answer ${answer.questionId} neither applied nor stored`);
    return {
      questionId: answer.questionId,
      status: "stale",
      version: row.version,
      value: row.value as AnswerValue,
      deviceId: row.deviceId,
    };
  });
  return {
    revision: outcome.revision,
    serverTime: new Date().toISOString(),
    deadline: outcome.deadline.toISOString(),
    results,
  };
}

/**
 * Step 4, without the exam's announcement (the caller makes one for both). The answers are stored whatever
 * happens here: a status that could not be kept is logged, not failed (the device reports again within ~15 s).
 */
async function keepStatusOfAutosave(
  candidate: CandidatePrincipal,
  attemptId: string,
  heartbeat: Parameters<typeof keepDeviceStatus>[0]["heartbeat"],
  change: ExamChangeKind,
): Promise<void> {
  try {
    // The exam's live bus hears of the autosave with the status's write (one round trip).
    await keepDeviceStatus({
      attemptId,
      examId: candidate.examId,
      enrollmentId: candidate.enrollmentId,
      heartbeat,
      announce: change,
    });
  } catch (error) {
    log.warn("autosave stored; the device status it carried was not kept", { attemptId, error });
    // The answers were stored all the same: the bus still hears of them.
    publishExamChange(candidate.examId, candidate.enrollmentId, change);
  }
}

/** Step 5. */
async function refuseFrozen(
  candidate: CandidatePrincipal,
  attemptId: string,
  deviceId: string,
  answers: readonly ValidatedAnswer[],
): Promise<never> {
  await storeLateAnswers({ attemptId, deviceId, answers, via: "autosave" });
  const current = await db.attempt.findUnique({
    where: { id: attemptId },
    select: { status: true, deadline: true, submission: { select: { id: true } } },
  });
  // Deleted with its exam a moment ago.
  if (!current) throw new AppError("NOT_FOUND", "No such attempt.");
  if (current.submission) {
    publishExamChange(candidate.examId, candidate.enrollmentId, "late_answer");
    throw new AppError(
      "ALREADY_SUBMITTED",
      "This attempt has already been submitted. Your change was kept as a late answer.",
      {
        details: { submissionId: current.submission.id, ...timeDetails(current) },
      },
    );
  }
  const submission = await autoSubmitAttempt(attemptId);
  publishExamChange(candidate.examId, candidate.enrollmentId, "late_answer");
  // An admin reopened the attempt since the statement found it frozen (ADR 017): the delta met the frozen paper
  // and is kept as late answers. Open now (null): the client's retry applies it. Submitted again since (not by
  // the deadline): that submission.
  if (submission === null) throw attemptBusy();
  if (submission.source !== "auto") {
    throw new AppError(
      "ALREADY_SUBMITTED",
      "This attempt has already been submitted. Your change was kept as a late answer.",
      {
        details: { submissionId: submission.id, ...timeDetails(current) },
      },
    );
  }
  throw new AppError("DEADLINE_PASSED", "The time for this exam is up. Your change was kept as a late answer.", {
    details: { submissionId: submission.id, ...timeDetails(current) },
  });
}
