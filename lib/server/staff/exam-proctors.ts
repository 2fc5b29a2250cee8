import "server-only";

import { db } from "../db/client";

export type ExamProctorEntry = { id: string; name: string; email: string; disabled: boolean };

/** The proctors assigned to an exam, by name; null when there is no such exam. */
export async function listExamProctors(options: { examId: string }): Promise<ExamProctorEntry[] | null> {
  const exam = await db.exam.findUnique({
    where: { id: options.examId },
    select: {
      proctors: {
        select: { staffUser: { select: { id: true, name: true, email: true, disabledAt: true } } },
        orderBy: { staffUser: { name: "asc" } },
      },
    },
  });
  if (!exam) return null;
  return exam.proctors.map(({ staffUser }) => ({
    id: staffUser.id,
    name: staffUser.name,
    email: staffUser.email,
    disabled: staffUser.disabledAt !== null,
  }));
}

/**
 * The proctor accounts that can be assigned: active ones only. A disabled account cannot sign in, so offering
 * it would only invite a mistake; one already assigned is listed by listExamProctors, marked, and removable.
 */
export async function listAssignableProctors(): Promise<Omit<ExamProctorEntry, "disabled">[]> {
  return db.staffUser.findMany({
    where: { role: "proctor", disabledAt: null },
    select: { id: true, name: true, email: true },
    orderBy: [{ name: "asc" }, { email: "asc" }],
  });
}
