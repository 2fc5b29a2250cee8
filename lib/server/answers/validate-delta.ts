import "server-only";

import { answerValueProblem } from "@/lib/shared/answers";
import { AppError } from "@/lib/shared/errors";
import type { AnswerValue } from "@/lib/shared/schemas/attempts";
import type { Option, QuestionType } from "@/lib/shared/schemas/exams";

import type { DeltaAnswer } from "./apply-answer-delta";

export type QuestionForValidation = { id: string; type: QuestionType; options: unknown };

type IncomingAnswer = { questionId: string; value: unknown; version: number; editedAt?: string };
export type ValidatedAnswer = DeltaAnswer & { editedAt?: string };

/**
 * Checks a delta against the attempt's questions: every question id must belong to the exam and every
 * value must fit its question. Any problem rejects the whole request (422, nothing applied), with the
 * field path of each problem. A question named twice keeps its greatest version (the contract lets us
 * choose; the greater version is what the device would have sent last).
 */
export function validateDelta(
  answers: readonly IncomingAnswer[],
  questions: readonly QuestionForValidation[],
): ValidatedAnswer[] {
  const byId = new Map(questions.map((question) => [question.id, question]));
  const issues: { path: string; message: string }[] = [];
  if (answers.length > questions.length) {
    issues.push({
      path: "answers",
      message: `names ${answers.length} answers but the exam has ${questions.length} questions`,
    });
  }
  answers.forEach((answer, index) => {
    const question = byId.get(answer.questionId);
    if (!question) {
      issues.push({ path: `answers.${index}.questionId`, message: "is not a question of this exam" });
      return;
    }
    const problem = answerValueProblem(
      { type: question.type, options: question.options as Option[] | null },
      answer.value,
    );
    if (problem) issues.push({ path: `answers.${index}.value`, message: problem });
  });
  if (issues.length > 0) {
    const first = issues[0]!;
    throw new AppError(
      "VALIDATION_FAILED",
      `Invalid answers: ${first.path} ${first.message}. Nothing was saved from this request.`,
      {
        details: { issues },
      },
    );
  }

  const latest = new Map<string, ValidatedAnswer>();
  for (const answer of answers) {
    const current = latest.get(answer.questionId);
    if (!current || answer.version > current.version) {
      latest.set(answer.questionId, {
        questionId: answer.questionId,
        value: answer.value as AnswerValue,
        version: answer.version,
        editedAt: answer.editedAt,
      });
    }
  }
  return [...latest.values()];
}
