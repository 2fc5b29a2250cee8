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

/** Every proctor account (disabled ones marked), for choosing whom to assign. */
export async function listProctorAccounts(): Promise<ExamProctorEntry[]> {
  const rows = await db.staffUser.findMany({
    where: { role: "proctor" },
    select: { id: true, name: true, email: true, disabledAt: true },
    orderBy: [{ name: "asc" }, { email: "asc" }],
  });
  return rows.map(({ disabledAt, ...rest }) => ({ ...rest, disabled: disabledAt !== null }));
}
