import "server-only";

import { db } from "../db/client";

/** An exam's id and title, for the admin's pages about its candidates; null when there is no such exam. */
export async function findExamTitle(options: { examId: string }): Promise<{ id: string; title: string } | null> {
  return db.exam.findUnique({ where: { id: options.examId }, select: { id: true, title: true } });
}
