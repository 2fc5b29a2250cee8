import "server-only";

import { db } from "../db/client";
import type { ExamStaffRole } from "./assign-exam-staff";

export type ExamStaffEntry = { id: string; name: string; email: string; disabled: boolean };

/** The proctors or graders assigned to an exam, by name; null when there is no such exam. */
export async function listExamStaff(options: {
  examId: string;
  role: ExamStaffRole;
}): Promise<ExamStaffEntry[] | null> {
  const { examId, role } = options;
  const query = {
    where: { examId },
    select: { staffUser: { select: { id: true, name: true, email: true, disabledAt: true } } },
    orderBy: { staffUser: { name: "asc" } },
  } as const;
  const [exam, rows] = await Promise.all([
    db.exam.findUnique({ where: { id: examId }, select: { id: true } }),
    role === "proctor" ? db.examProctor.findMany(query) : db.examGrader.findMany(query),
  ]);
  if (!exam) return null;
  return rows.map(({ staffUser }) => ({
    id: staffUser.id,
    name: staffUser.name,
    email: staffUser.email,
    disabled: staffUser.disabledAt !== null,
  }));
}

/**
 * The accounts of a role that can be assigned: active ones only. A disabled account cannot sign in, so offering
 * it would only invite a mistake; one already assigned is listed by listExamStaff, marked, and removable.
 */
export async function listAssignableStaff(options: {
  role: ExamStaffRole;
}): Promise<Omit<ExamStaffEntry, "disabled">[]> {
  return db.staffUser.findMany({
    where: { role: options.role, disabledAt: null },
    select: { id: true, name: true, email: true },
    orderBy: [{ name: "asc" }, { email: "asc" }],
  });
}
