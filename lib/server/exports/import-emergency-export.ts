import "server-only";

import type { EmergencyExportFile, EmergencyImportResult } from "@/lib/shared/emergency-export";
import { AppError } from "@/lib/shared/errors";

import { applyAnswerDelta } from "../answers/apply-answer-delta";
import { validateDelta, type ValidatedAnswer } from "../answers/validate-delta";
import { withLockedAttempt } from "../attempts/with-locked-attempt";
import { actorOf } from "../auth/actor";
import type { ApiTokenPrincipal, StaffPrincipal } from "../auth/sessions";
import { recordAuditEvent } from "../audit/record-audit-event";
import { db, type Prisma } from "../db/client";
import { recordLateAnswers } from "../metrics/record-answer-outcomes";
import { decryptEmergencyExport } from "./decrypt-emergency-export";

/**
 * Takes in an emergency file uploaded by staff (docs/sync-protocol.md, "Emergency export"; ADR 006):
 *
 * 1. Decrypt it with the key of the attempt it names (422, nothing stored, if that fails).
 * 2. Load the attempt scoped to the uploader: admins and the API token see every attempt, a proctor only
 *    those of exams assigned to them; anything else is 404.
 * 3. Validate every answer against the exam's questions, as an autosave would (422, nothing stored).
 * 4. In the locked-attempt transaction (with-locked-attempt.ts; the row lock also serialises two uploads of
 *    one file): an open attempt gets the answers through the autosave rule (greater `(version, deviceId)`
 *    wins); an overdue one has been auto-submitted by the lock; a frozen one keeps them as late answers
 *    (`via = 'export'`), skipping any the server already holds — the same edit in the paper or among the
 *    late answers — so uploading a file twice changes nothing the second time.
 * 5. An audit event says who uploaded what, and the counts.
 */
export async function importEmergencyExport(options: {
  file: EmergencyExportFile;
  principal: StaffPrincipal | ApiTokenPrincipal;
}): Promise<EmergencyImportResult> {
  const { file, principal } = options;

  // 1.
  const payload = await decryptEmergencyExport(file);

  // 2.
  const scope: Prisma.AttemptWhereInput =
    principal.kind === "staff" && principal.role !== "admin"
      ? { exam: { proctors: { some: { staffUserId: principal.userId } } } }
      : {};
  const attempt = await db.attempt.findFirst({
    where: { id: payload.attemptId, ...scope },
    select: {
      id: true,
      examId: true,
      enrollmentId: true,
      enrollment: { select: { name: true, email: true } },
      exam: { select: { questions: { select: { id: true, type: true, options: true } } } },
    },
  });
  if (!attempt) throw new AppError("NOT_FOUND", "No such attempt.");

  // 3.
  const answers = validateDelta(payload.answers, attempt.exam.questions);

  // 4.
  const { mode, counts } = await withLockedAttempt(attempt.id, async (tx, locked) => {
    const outcome: Omit<EmergencyImportResult, "attemptId" | "examId" | "candidate" | "deviceId" | "createdAt"> =
      locked.status === "in_progress"
        ? { mode: "applied", counts: await applyOpen(tx, attempt.id, payload.deviceId, answers) }
        : { mode: "late", counts: await storeLate(tx, attempt.id, payload.deviceId, answers) };
    // 5.
    await recordAuditEvent(
      {
        actor: actorOf(principal),
        action: "emergency_export.imported",
        examId: attempt.examId,
        enrollmentId: attempt.enrollmentId,
        attemptId: attempt.id,
        data: {
          deviceId: payload.deviceId,
          createdAt: payload.createdAt,
          answers: answers.length,
          mode: outcome.mode,
          ...outcome.counts,
        },
      },
      tx,
    );
    return outcome;
  });
  if (mode === "late") recordLateAnswers("export", counts.late);

  return {
    attemptId: attempt.id,
    examId: attempt.examId,
    candidate: attempt.enrollment,
    deviceId: payload.deviceId,
    createdAt: payload.createdAt,
    mode,
    counts,
  };
}

type Counts = EmergencyImportResult["counts"];

/** Step 4, open attempt: the autosave statement, then applied / duplicate / stale per answer. */
async function applyOpen(
  tx: Prisma.TransactionClient,
  attemptId: string,
  deviceId: string,
  answers: ValidatedAnswer[],
): Promise<Counts> {
  const counts: Counts = { applied: 0, duplicate: 0, stale: 0, late: 0 };
  if (answers.length === 0) return counts;
  const outcome = await applyAnswerDelta(tx, { attemptId, deviceId, answers });
  // The row lock is held and the attempt was open: the statement cannot find it closed.
  if (!outcome.isOpen) throw new Error(`attempt ${attemptId} closed under its row lock`);
  const stored = await tx.answer.findMany({
    where: { attemptId, questionId: { in: answers.map((answer) => answer.questionId) } },
    select: { questionId: true, version: true, deviceId: true },
  });
  const storedById = new Map(stored.map((row) => [row.questionId, row]));
  for (const answer of answers) {
    const row = storedById.get(answer.questionId);
    if (outcome.applied.has(answer.questionId)) counts.applied += 1;
    else if (row && row.version === answer.version && row.deviceId === deviceId) counts.duplicate += 1;
    else counts.stale += 1;
  }
  return counts;
}

/**
 * Step 4, frozen attempt: one INSERT … SELECT that skips an edit the server already holds (same question,
 * version and device, in the paper or among the late answers). The caller holds the attempt's row lock,
 * so two uploads of one file cannot both pass the NOT EXISTS.
 */
async function storeLate(
  tx: Prisma.TransactionClient,
  attemptId: string,
  deviceId: string,
  answers: ValidatedAnswer[],
): Promise<Counts> {
  if (answers.length === 0) return { applied: 0, duplicate: 0, stale: 0, late: 0 };
  const questionIds = answers.map((answer) => answer.questionId);
  const values = answers.map((answer) => JSON.stringify(answer.value));
  const versions = answers.map((answer) => answer.version);
  const editedAts = answers.map((answer) => answer.editedAt ?? null);
  const inserted = await tx.$queryRaw<{ question_id: string }[]>`
    INSERT INTO late_answers (id, attempt_id, question_id, value, version, device_id, client_edited_at, received_at, via)
    SELECT gen_random_uuid(), ${attemptId}::uuid, input.question_id, input.value::jsonb, input.version, ${deviceId},
           input.edited_at::timestamptz, clock_timestamp(), 'export'
    FROM unnest(${questionIds}::uuid[], ${values}::text[], ${versions}::int[], ${editedAts}::text[])
      AS input(question_id, value, version, edited_at)
    WHERE NOT EXISTS (
        SELECT 1 FROM answers a
        WHERE a.attempt_id = ${attemptId}::uuid AND a.question_id = input.question_id
          AND a.version = input.version AND a.device_id = ${deviceId})
      AND NOT EXISTS (
        SELECT 1 FROM late_answers l
        WHERE l.attempt_id = ${attemptId}::uuid AND l.question_id = input.question_id
          AND l.version = input.version AND l.device_id = ${deviceId})
    RETURNING question_id::text AS question_id`;
  return { applied: 0, duplicate: answers.length - inserted.length, stale: 0, late: inserted.length };
}
