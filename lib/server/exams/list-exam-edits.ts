import "server-only";

import type { ExamEditRecord } from "@/lib/shared/schemas/exams";

import { db } from "../db/client";

/** The corrections made to an exam's questions after attempts existed, newest first. */
export async function listExamEdits(options: { examId: string }): Promise<ExamEditRecord[]> {
  const rows = await db.examEdit.findMany({
    where: { examId: options.examId },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: 500,
  });
  return rows.map((row) => ({
    id: row.id,
    at: row.at.toISOString(),
    actorLabel: row.actorLabel,
    questionId: row.questionId,
    field: row.field,
    before: row.before,
    after: row.after,
  }));
}
