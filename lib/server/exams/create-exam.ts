import "server-only";

import type { AdminExam, CreateExamInput } from "@/lib/shared/schemas/exams";

import { recordAuditEvent } from "../audit/record-audit-event";
import type { AuditActor } from "../auth/actor";
import { db } from "../db/client";
import { adminExamSelect, toAdminExam } from "./find-admin-exam";
import { questionData } from "./question-data";
import { storedQuestion } from "./stored-question";

/**
 * Creates an exam and all its questions in one transaction; positions follow the input order (1-based). The
 * answer is the exam as its editor reads it, with revision 1.
 */
export async function createExam(options: { input: CreateExamInput; actor: AuditActor }): Promise<AdminExam> {
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
        lateAnswers: input.lateAnswers,
        resultsVisibility: input.resultsVisibility,
        resultsDetail: input.resultsDetail,
        secondMarking: input.secondMarking,
        shuffleQuestions: input.shuffleQuestions,
        shuffleOptions: input.shuffleOptions,
        status: input.status,
        questions: {
          create: input.questions.map((question, index) => ({
            position: index + 1,
            ...storedQuestion(questionData(question)),
          })),
        },
      },
      select: adminExamSelect,
    });
    await recordAuditEvent(
      { actor, action: "exam.created", examId: exam.id, data: { questions: exam.questions.length } },
      tx,
    );
    return toAdminExam(exam);
  });
}
