import "server-only";

import { AppError } from "@/lib/shared/errors";

import { recordAuditEvent } from "../audit/record-audit-event";
import type { AuditActor } from "../auth/actor";
import { db } from "../db/client";

/**
 * Deletes an exam nobody has started (its questions, enrollments and join links go with it). Once an attempt
 * exists the exam is evidence: 409 EXAM_HAS_ATTEMPTS, nothing deleted. The exam row is locked `FOR UPDATE`
 * first, which waits for any attempt or enrollment being inserted (start-attempt.ts and the roster imports
 * take the exam FOR KEY SHARE before anything else), so the count that decides is exact. The cascade then
 * locks the exam's rows below it: the lock order (docs/sync-protocol.md, "Lock order").
 */
export async function deleteExam(options: { examId: string; actor: AuditActor }): Promise<void> {
  const { examId, actor } = options;
  await db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ title: string }[]>`
      SELECT title FROM exams WHERE id = ${examId}::uuid FOR UPDATE`;
    const exam = locked[0];
    if (!exam) throw new AppError("NOT_FOUND", "Not found.");
    const attempts = await tx.attempt.count({ where: { examId } });
    if (attempts > 0) {
      throw new AppError(
        "EXAM_HAS_ATTEMPTS",
        `${attempts} candidate(s) started this exam, so it cannot be deleted. Close or archive it instead.`,
        { details: { attempts } },
      );
    }
    await tx.exam.delete({ where: { id: examId } });
    await recordAuditEvent({ actor, action: "exam.deleted", examId, data: { title: exam.title } }, tx);
  });
}
