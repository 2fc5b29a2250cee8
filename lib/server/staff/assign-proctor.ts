import "server-only";

import { AppError } from "@/lib/shared/errors";

import { recordAuditEvent, type AuditActor } from "../audit/record-audit-event";
import { db } from "../db/client";

/**
 * Lets a proctor watch an exam. Idempotent: assigning twice, even at once, leaves one row (the primary key
 * decides, through INSERT … ON CONFLICT DO NOTHING, never read-then-write). Only active proctor accounts can
 * be assigned (admins see every exam anyway); an unknown exam or account is 404.
 */
export async function assignProctor(options: {
  examId: string;
  staffUserId: string;
  actor: AuditActor;
}): Promise<void> {
  const { examId, staffUserId, actor } = options;
  const [exam, staff] = await Promise.all([
    db.exam.findUnique({ where: { id: examId }, select: { id: true } }),
    db.staffUser.findUnique({ where: { id: staffUserId }, select: { role: true, disabledAt: true } }),
  ]);
  if (!exam || !staff) throw new AppError("NOT_FOUND", "No such exam or staff account.");
  if (staff.role !== "proctor") {
    throw new AppError("VALIDATION_FAILED", "Only proctor accounts are assigned to exams; admins see every exam.", {
      details: { issues: [{ path: "staffId", message: "must be a proctor" }] },
    });
  }
  // A disabled account cannot sign in; assigning it would only hand it this exam the day it is enabled.
  if (staff.disabledAt !== null) {
    throw new AppError("VALIDATION_FAILED", "This proctor account is disabled; enable it before assigning it.", {
      details: { issues: [{ path: "staffId", message: "must be an active proctor" }] },
    });
  }
  await db.$transaction(async (tx) => {
    const inserted = await tx.$executeRaw`
      INSERT INTO exam_proctors (exam_id, staff_user_id) VALUES (${examId}::uuid, ${staffUserId}::uuid)
      ON CONFLICT DO NOTHING`;
    if (inserted > 0) await recordAuditEvent({ actor, action: "proctor.assigned", examId, data: { staffUserId } }, tx);
  });
}

/** Ends a proctor's assignment to an exam; their dashboard for it answers 404 from the next request. Idempotent. */
export async function unassignProctor(options: {
  examId: string;
  staffUserId: string;
  actor: AuditActor;
}): Promise<void> {
  const { examId, staffUserId, actor } = options;
  const exam = await db.exam.findUnique({ where: { id: examId }, select: { id: true } });
  if (!exam) throw new AppError("NOT_FOUND", "No such exam.");
  await db.$transaction(async (tx) => {
    const { count } = await tx.examProctor.deleteMany({ where: { examId, staffUserId } });
    if (count > 0) await recordAuditEvent({ actor, action: "proctor.unassigned", examId, data: { staffUserId } }, tx);
  });
}
