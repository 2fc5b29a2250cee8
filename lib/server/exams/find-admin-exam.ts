import "server-only";

import { z } from "zod";

import {
  CHOICE_SCORINGS,
  LATE_ANSWER_POLICIES,
  OptionSchema,
  RESULTS_DETAILS,
  RESULTS_VISIBILITIES,
  type AdminExam,
} from "@/lib/shared/schemas/exams";

import { db } from "../db/client";

type Client = Pick<typeof db, "exam">;

/** A question's stored options and key as staff read them back; a malformed stored value reads as empty. */
export const OptionsSchema = z.array(OptionSchema).catch([]);
export const AnswerKeySchema = z
  .union([z.string(), z.number(), z.array(z.string())])
  .nullable()
  .catch(null);

/** The columns every admin exam response is made of. */
export const adminExamSelect = {
  id: true,
  revision: true,
  title: true,
  description: true,
  rules: true,
  status: true,
  durationSeconds: true,
  graceSeconds: true,
  opensAt: true,
  closesAt: true,
  lateAnswers: true,
  resultsVisibility: true,
  resultsDetail: true,
  secondMarking: true,
  shuffleQuestions: true,
  shuffleOptions: true,
  updatedAt: true,
  _count: { select: { attempts: true } },
  questions: {
    orderBy: { position: "asc" },
    select: {
      id: true,
      position: true,
      type: true,
      prompt: true,
      points: true,
      options: true,
      answerKey: true,
      tolerance: true,
      scoring: true,
      exactMatch: true,
      ungraded: true,
      rubric: true,
    },
  },
} as const;

type Row = NonNullable<Awaited<ReturnType<typeof selectExam>>>;

function selectExam(client: Client, examId: string) {
  return client.exam.findUnique({ where: { id: examId }, select: adminExamSelect });
}

/** The response shape of a row read with `adminExamSelect`. */
export function toAdminExam(row: Row): AdminExam {
  return {
    id: row.id,
    revision: row.revision,
    title: row.title,
    description: row.description,
    rules: row.rules,
    status: row.status,
    durationSeconds: row.durationSeconds,
    graceSeconds: row.graceSeconds,
    opensAt: row.opensAt?.toISOString() ?? null,
    closesAt: row.closesAt?.toISOString() ?? null,
    lateAnswers: z.enum(LATE_ANSWER_POLICIES).catch("keep_for_review").parse(row.lateAnswers),
    resultsVisibility: z.enum(RESULTS_VISIBILITIES).catch("after_release").parse(row.resultsVisibility),
    resultsDetail: z.enum(RESULTS_DETAILS).catch("per_question").parse(row.resultsDetail),
    secondMarking: row.secondMarking,
    shuffleQuestions: row.shuffleQuestions,
    shuffleOptions: row.shuffleOptions,
    updatedAt: row.updatedAt.toISOString(),
    attemptCount: row._count.attempts,
    questions: row.questions.map((question) => ({
      id: question.id,
      position: question.position,
      type: question.type,
      prompt: question.prompt,
      points: question.points,
      options: OptionsSchema.parse(question.options ?? []),
      answerKey: AnswerKeySchema.parse(question.answerKey),
      tolerance: question.tolerance,
      scoring: z.enum(CHOICE_SCORINGS).nullable().catch(null).parse(question.scoring),
      exactMatch: question.exactMatch,
      ungraded: question.ungraded,
      rubric: question.rubric,
    })),
  };
}

/**
 * One exam as its editor sees it, keys included, or null. Admin only (the routes say so): admins see every
 * exam, so there is no scope to put in the query.
 */
export async function findAdminExam(options: { examId: string; client?: Client }): Promise<AdminExam | null> {
  const row = await selectExam(options.client ?? db, options.examId);
  return row ? toAdminExam(row) : null;
}
