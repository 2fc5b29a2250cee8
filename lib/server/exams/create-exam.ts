import "server-only";

import type { CreateExamInput, QuestionType } from "@/lib/shared/schemas/exams";

import { recordAuditEvent, type AuditActor } from "../audit/record-audit-event";
import { db } from "../db/client";

export type CreatedExam = {
  id: string;
  title: string;
  status: "draft" | "published" | "closed";
  questions: { id: string; type: QuestionType; position: number }[];
};

/** Creates an exam and all its questions in one transaction; positions follow the input order (1-based). */
export async function createExam(options: { input: CreateExamInput; actor: AuditActor }): Promise<CreatedExam> {
  const { input, actor } = options;
  return db.$transaction(async (tx) => {
    const exam = await tx.exam.create({
      data: {
        title: input.title,
        description: input.description,
        rules: input.rules,
        durationSeconds: input.durationSeconds,
        graceSeconds: input.graceSeconds,
        opensAt: input.opensAt ? new Date(input.opensAt) : null,
        closesAt: input.closesAt ? new Date(input.closesAt) : null,
        status: input.status,
        questions: {
          create: input.questions.map((question, index) => ({
            position: index + 1,
            type: question.type,
            prompt: question.prompt,
            points: question.points,
            options: "options" in question ? question.options : undefined,
            answerKey: "answerKey" in question && question.answerKey !== undefined ? question.answerKey : undefined,
            tolerance: "tolerance" in question ? question.tolerance : undefined,
          })),
        },
      },
      select: {
        id: true,
        title: true,
        status: true,
        questions: { select: { id: true, type: true, position: true }, orderBy: { position: "asc" } },
      },
    });
    await recordAuditEvent(
      { actor, action: "exam.created", examId: exam.id, data: { questions: exam.questions.length } },
      tx,
    );
    return exam;
  });
}
