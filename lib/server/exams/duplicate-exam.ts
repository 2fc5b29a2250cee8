import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { AdminExam } from "@/lib/shared/schemas/exams";

import { recordAuditEvent } from "../audit/record-audit-event";
import type { AuditActor } from "../auth/actor";
import { db } from "../db/client";
import { adminExamSelect, findAdminExam, toAdminExam } from "./find-admin-exam";
import { storedQuestion } from "./stored-question";

/**
 * A new draft with the exam's settings and questions (new ids, same order, keys included) and none of its
 * candidates, proctors or attempts. `title` defaults to the original's; the editor sends a translated
 * "Copy of …".
 */
export async function duplicateExam(options: {
  examId: string;
  title?: string;
  actor: AuditActor;
}): Promise<AdminExam> {
  const { examId, actor } = options;
  const source = await findAdminExam({ examId });
  if (!source) throw new AppError("NOT_FOUND", "Not found.");
  return db.$transaction(async (tx) => {
    const copy = await tx.exam.create({
      data: {
        title: options.title ?? source.title,
        description: source.description,
        rules: source.rules,
        durationSeconds: source.durationSeconds,
        graceSeconds: source.graceSeconds,
        opensAt: source.opensAt ? new Date(source.opensAt) : null,
        closesAt: source.closesAt ? new Date(source.closesAt) : null,
        lateAnswers: source.lateAnswers,
        resultsVisibility: source.resultsVisibility,
        resultsDetail: source.resultsDetail,
        secondMarking: source.secondMarking,
        shuffleQuestions: source.shuffleQuestions,
        shuffleOptions: source.shuffleOptions,
        status: "draft",
        questions: {
          create: source.questions.map((question) => ({ position: question.position, ...storedQuestion(question) })),
        },
      },
      select: adminExamSelect,
    });
    await recordAuditEvent(
      { actor, action: "exam.duplicated", examId: copy.id, data: { from: examId, questions: copy.questions.length } },
      tx,
    );
    return toAdminExam(copy);
  });
}
