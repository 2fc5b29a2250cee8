import "server-only";

import { AppError } from "@/lib/shared/errors";

import { recordAuditEvent } from "../audit/record-audit-event";
import type { AuditActor } from "../auth/actor";
import { db, type Prisma } from "../db/client";

type Tx = Prisma.TransactionClient;

/** The roles that are assigned to exams one by one; admins see and mark every exam. */
export type ExamStaffRole = "proctor" | "grader";

// One place for what differs between the two assignments: the table and the audit kinds. The SQL is written
// out per table (no identifier is ever built from input).
const ASSIGNMENTS = {
  proctor: {
    insert: (tx: Tx, examId: string, staffUserId: string) => tx.$executeRaw`
      INSERT INTO exam_proctors (exam_id, staff_user_id) VALUES (${examId}::uuid, ${staffUserId}::uuid)
      ON CONFLICT DO NOTHING`,
    remove: (tx: Tx, examId: string, staffUserId: string) =>
      tx.examProctor.deleteMany({ where: { examId, staffUserId } }),
    assigned: "proctor.assigned",
    unassigned: "proctor.unassigned",
  },
  grader: {
    insert: (tx: Tx, examId: string, staffUserId: string) => tx.$executeRaw`
      INSERT INTO exam_graders (exam_id, staff_user_id) VALUES (${examId}::uuid, ${staffUserId}::uuid)
      ON CONFLICT DO NOTHING`,
    remove: (tx: Tx, examId: string, staffUserId: string) =>
      tx.examGrader.deleteMany({ where: { examId, staffUserId } }),
    assigned: "grader.assigned",
    unassigned: "grader.unassigned",
  },
} as const;

/**
 * Lets a proctor watch an exam, or a grader mark it. Idempotent: assigning twice, even at once, leaves one row
 * (the primary key decides, through INSERT … ON CONFLICT DO NOTHING, never read-then-write). Only active
 * accounts of that role can be assigned (admins see every exam anyway); an unknown exam or account is 404.
 */
export async function assignExamStaff(options: {
  role: ExamStaffRole;
  examId: string;
  staffUserId: string;
  actor: AuditActor;
}): Promise<void> {
  const { role, examId, staffUserId, actor } = options;
  const [exam, staff] = await Promise.all([
    db.exam.findUnique({ where: { id: examId }, select: { id: true } }),
    db.staffUser.findUnique({ where: { id: staffUserId }, select: { role: true, disabledAt: true } }),
  ]);
  if (!exam || !staff) throw new AppError("NOT_FOUND", "No such exam or staff account.");
  if (staff.role !== role) {
    throw new AppError("VALIDATION_FAILED", `Only ${role} accounts are assigned here; admins see every exam.`, {
      details: { issues: [{ path: "staffId", message: `must be a ${role}` }] },
    });
  }
  // A disabled account cannot sign in; assigning it would only hand it this exam the day it is enabled.
  if (staff.disabledAt !== null) {
    throw new AppError("VALIDATION_FAILED", `This ${role} account is disabled; enable it before assigning it.`, {
      details: { issues: [{ path: "staffId", message: `must be an active ${role}` }] },
    });
  }
  const assignment = ASSIGNMENTS[role];
  await db.$transaction(async (tx) => {
    const inserted = await assignment.insert(tx, examId, staffUserId);
    if (inserted > 0) {
      await recordAuditEvent({ actor, action: assignment.assigned, examId, data: { staffUserId } }, tx);
    }
  });
}

/**
 * Ends a proctor's or grader's assignment to an exam; what it gave them answers 404 (proctor) or 403 (grader)
 * from the next request. Idempotent.
 */
export async function unassignExamStaff(options: {
  role: ExamStaffRole;
  examId: string;
  staffUserId: string;
  actor: AuditActor;
}): Promise<void> {
  const { role, examId, staffUserId, actor } = options;
  const exam = await db.exam.findUnique({ where: { id: examId }, select: { id: true } });
  if (!exam) throw new AppError("NOT_FOUND", "No such exam.");
  const assignment = ASSIGNMENTS[role];
  await db.$transaction(async (tx) => {
    const { count } = await assignment.remove(tx, examId, staffUserId);
    if (count > 0) {
      await recordAuditEvent({ actor, action: assignment.unassigned, examId, data: { staffUserId } }, tx);
    }
  });
}
