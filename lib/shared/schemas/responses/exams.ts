import { z } from "@/lib/shared/zod";

import type { PublishProblem } from "@/lib/shared/exam-lifecycle";
import { UuidSchema } from "@/lib/shared/schemas/attempts";
import {
  CHOICE_SCORINGS,
  EXAM_STATUSES,
  LATE_ANSWER_POLICIES,
  OptionSchema,
  QUESTION_TYPES,
  RESULTS_DETAILS,
  RESULTS_VISIBILITIES,
  type AdminExam,
  type ExamEditRecord,
} from "@/lib/shared/schemas/exams";
import { QTI_ITEM_PROBLEMS, type QtiImportResult } from "@/lib/shared/schemas/qti";

import { Instant } from "./common";

/**
 * An exam as its editor reads it, a QTI import's preview, and the exam's corrections. The 200/201 bodies as zod
 * schemas, for the routes' documentation (their `doc`, docs/api.md) and for clients that read them; each `satisfies`
 * the type the server builds its answer with, so the two cannot drift apart.
 */

/** An exam as its editor reads it, keys included: create, GET, PATCH, duplicate, and 409 EDIT_CONFLICT's `details.exam`. */
export const AdminExamSchema = z.object({
  id: UuidSchema,
  revision: z.number().int().min(1).describe("what the next PATCH must send"),
  title: z.string(),
  description: z.string(),
  rules: z.string(),
  status: z.enum(EXAM_STATUSES),
  durationSeconds: z.number().int(),
  graceSeconds: z.number().int(),
  opensAt: Instant.nullable(),
  closesAt: Instant.nullable(),
  lateAnswers: z.enum(LATE_ANSWER_POLICIES),
  resultsVisibility: z.enum(RESULTS_VISIBILITIES),
  resultsDetail: z
    .enum(RESULTS_DETAILS)
    .describe('what candidates see of a released result: "total" only, or "per_question" points and comments'),
  secondMarking: z.boolean().describe("double marking; fixed once any mark exists"),
  shuffleQuestions: z.boolean(),
  shuffleOptions: z.boolean(),
  updatedAt: Instant,
  attemptCount: z
    .number()
    .int()
    .min(0)
    .describe("attempts started; once there is one, the questions' structure is locked"),
  questions: z.array(
    z.object({
      id: UuidSchema,
      position: z.number().int().min(1),
      type: z.enum(QUESTION_TYPES),
      prompt: z.string(),
      points: z.number(),
      options: z.array(OptionSchema).describe("choice questions; [] for the others"),
      answerKey: z
        .union([z.string(), z.array(z.string()), z.number()])
        .nullable()
        .describe("single: an option id; multiple: option ids; short text: accepted answers; numeric: a number"),
      tolerance: z.number().nullable(),
      scoring: z.enum(CHOICE_SCORINGS).nullable(),
      exactMatch: z.boolean(),
      ungraded: z.boolean(),
      rubric: z.string().describe("guidance for graders; never sent to candidates"),
    }),
  ),
}) satisfies z.ZodType<AdminExam>;

/** `POST /api/admin/exams/{examId}/qti`: the preview, and after a written import the exam. */
export const QtiImportResultSchema = z.object({
  dryRun: z.boolean(),
  written: z.boolean().describe("true only when this request appended the questions"),
  summary: z.object({
    items: z.number().int(),
    ok: z.number().int(),
    unsupported: z.number().int(),
    imported: z.number().int(),
  }),
  items: z.array(
    z.object({
      identifier: z.string(),
      href: z.string().describe("the item's file in the package"),
      type: z.enum(QUESTION_TYPES).nullable(),
      promptExcerpt: z.string().describe("the prompt as plain text, at most 160 characters"),
      status: z.enum(["ok", "unsupported"]),
      problem: z
        .object({ code: z.enum(QTI_ITEM_PROBLEMS), detail: z.string().optional() })
        .optional()
        .describe("why the item cannot be imported"),
    }),
  ),
  exam: AdminExamSchema.optional().describe("after a written import: the exam with its new questions"),
}) satisfies z.ZodType<QtiImportResult>;

export const ExamEditsSchema = z.object({
  edits: z.array(
    z.object({
      id: UuidSchema,
      at: Instant,
      actorLabel: z.string(),
      questionId: UuidSchema.nullable(),
      field: z.string(),
      before: z.unknown(),
      after: z.unknown(),
    }),
  ),
}) satisfies z.ZodType<{ edits: ExamEditRecord[] }>;

/** 422 PUBLISH_CHECK_FAILED's `details`: what keeps the exam from being published, in the order the editor lists it. */
export const PublishCheckDetailsSchema = z.object({
  problems: z.array(
    z.discriminatedUnion("code", [
      z.object({ code: z.literal("NO_QUESTIONS") }),
      z.object({
        code: z.literal("CHOICE_WITHOUT_KEY"),
        questionId: z.string().nullable(),
        position: z.number().int(),
      }),
      z.object({ code: z.literal("WINDOW_NOT_ORDERED") }),
      z.object({ code: z.literal("WINDOW_ALREADY_CLOSED") }),
      z.object({ code: z.literal("WINDOW_SHORTER_THAN_DURATION") }),
      z.object({ code: z.literal("DURATION_NOT_POSITIVE") }),
    ]),
  ),
}) satisfies z.ZodType<{ problems: PublishProblem[] }>;
