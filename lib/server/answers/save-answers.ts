import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { AnswerValue } from "@/lib/shared/schemas/attempts";
import type { AnswerResult, AutosaveResponse } from "@/lib/shared/schemas/sync";

import { autoSubmitAttempt } from "../attempts/auto-submit";
import { loadAttemptForWrite, timeDetails, type AttemptForWrite } from "../attempts/load-attempt-for-write";
import type { CandidatePrincipal } from "../auth/sessions";
import { db } from "../db/client";
import { applyAnswerDelta } from "./apply-answer-delta";
import { storeLateAnswers } from "./store-late-answers";
import { validateDelta, type ValidatedAnswer } from "./validate-delta";

/**
 * Versioned delta autosave (docs/sync-protocol.md, "Autosave"):
 *
 * 1. Load the attempt scoped to the caller (404 otherwise) and validate the delta (422, nothing applied).
 * 2. Apply it in one statement: per answer, the greater (version, deviceId) wins.
 * 3. Report per answer: applied, duplicate (this exact version is stored), or stale (the server holds a
 *    greater one, returned so the client adopts it).
 * 4. A frozen attempt keeps the delta as late answers and answers 409 ALREADY_SUBMITTED or
 *    DEADLINE_PASSED (auto-submitting first if the sweeper has not got to it yet).
 */
export async function saveAnswers(options: {
  attemptId: string;
  candidate: CandidatePrincipal;
  deviceId: string;
  answers: readonly { questionId: string; value: unknown; version: number; editedAt?: string }[];
}): Promise<AutosaveResponse> {
  // 1.
  const attempt = await loadAttemptForWrite({ attemptId: options.attemptId, enrollmentId: options.candidate.enrollmentId });
  const answers = validateDelta(options.answers, attempt.questions);
  if (attempt.status === "submitted") return refuseFrozen(attempt, options.deviceId, answers);

  // 2.
  const outcome = await applyAnswerDelta(db, { attemptId: attempt.id, deviceId: options.deviceId, answers });
  if (!outcome.isOpen) return refuseFrozen(attempt, options.deviceId, answers);

  // 3.
  const notApplied = answers.filter((answer) => !outcome.applied.has(answer.questionId));
  const stored = notApplied.length
    ? await db.answer.findMany({
        where: { attemptId: attempt.id, questionId: { in: notApplied.map((answer) => answer.questionId) } },
        select: { questionId: true, value: true, version: true, deviceId: true },
      })
    : [];
  const storedById = new Map(stored.map((row) => [row.questionId, row]));
  const results: AnswerResult[] = answers.map((answer) => {
    if (outcome.applied.has(answer.questionId)) return { questionId: answer.questionId, status: "applied", version: answer.version };
    const row = storedById.get(answer.questionId);
    if (row && row.version === answer.version && row.deviceId === options.deviceId) {
      return { questionId: answer.questionId, status: "duplicate", version: answer.version };
    }
    if (!row) throw new Error(`answer ${answer.questionId} neither applied nor stored`);
    return { questionId: answer.questionId, status: "stale", version: row.version, value: row.value as AnswerValue, deviceId: row.deviceId };
  });
  return { revision: outcome.revision, serverTime: new Date().toISOString(), deadline: attempt.deadline.toISOString(), results };
}

/** Step 4. */
async function refuseFrozen(attempt: AttemptForWrite, deviceId: string, answers: readonly ValidatedAnswer[]): Promise<never> {
  await storeLateAnswers({ attemptId: attempt.id, deviceId, answers, via: "autosave" });
  const current = await db.attempt.findUniqueOrThrow({
    where: { id: attempt.id },
    select: { status: true, deadline: true, submission: { select: { id: true } } },
  });
  if (current.submission) {
    throw new AppError("ALREADY_SUBMITTED", "This attempt has already been submitted. Your change was kept as a late answer.", {
      details: { submissionId: current.submission.id, ...timeDetails(current) },
    });
  }
  const submissionId = await autoSubmitAttempt(attempt.id);
  throw new AppError("DEADLINE_PASSED", "The time for this exam is up. Your change was kept as a late answer.", {
    details: { submissionId, ...timeDetails(current) },
  });
}
