import { z } from "@/lib/shared/zod";

import { decimalOf } from "../scoring/exact-decimal";
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from "../text";
import { UuidSchema } from "./attempts";
import { InstantSchema } from "./instant";

/** Who a mark is from: the first marker, the second (double marking), or an admin settling a disagreement. */
export const GRADE_MARKERS = ["first", "second", "final"] as const;
export type GradeMarker = (typeof GRADE_MARKERS)[number];

export const GradingQuestionParamsSchema = z.object({ examId: UuidSchema, questionId: UuidSchema });
export const GradeParamsSchema = z.object({ examId: UuidSchema, questionId: UuidSchema, attemptId: UuidSchema });

export const GradingQueueQuerySchema = z.object({ marker: z.enum(GRADE_MARKERS).default("first") });

/** `PUT /api/admin/exams/{examId}/grading/{questionId}/{attemptId}`. */
export const SaveGradeSchema = z.object({
  marker: z.enum(GRADE_MARKERS).default("first"),
  points: z
    .number()
    .finite()
    .min(0)
    .refine((points) => decimalOf(points).scale <= 4, "must have at most 4 decimal places"),
  comment: z.string().trim().max(5_000).refine(isStorableText, UNSTORABLE_TEXT_MESSAGE).default(""),
  /** The grade's revision this change is based on; 0 when there was no grade from this marker yet. */
  revision: z.number().int().min(0),
});
export type SaveGradeInput = z.infer<typeof SaveGradeSchema>;

/** One person's mark as the grading pages show it. */
export type GradeView = { points: number; comment: string; by: string; revision: number; updatedAt: string };

/** One answer in a question's grading queue. Blind: a candidate code, the name only after results are released. */
export type GradingQueueItem = {
  attemptId: string;
  candidateCode: string;
  /** Null until the exam's results are released. */
  candidateName: string | null;
  /** The answer scored: the frozen one, or a late answer staff accepted (`lateAnswerId`). */
  value: string | number | string[] | null;
  lateAnswerId: string | null;
  /** How the result decided this question now (source/reason of the result, lib/shared/scoring/paper-result.ts). */
  source: string;
  reason: string;
  points: number | null;
  /** The marks this marker may see: their own; with `marker=final`, all of them. */
  grades: Partial<Record<GradeMarker, GradeView>>;
};

export type GradingQueue = {
  examId: string;
  question: { id: string; position: number; type: string; prompt: string; rubric: string; points: number };
  marker: GradeMarker;
  secondMarking: boolean;
  items: GradingQueueItem[];
};

/** One question in the grading overview (`GET /api/admin/exams/{examId}/grading`). */
export type GradingOverviewQuestion = {
  id: string;
  position: number;
  type: string;
  /** The prompt's first words, for a list. */
  prompt: string;
  points: number;
  /** A survey item: never scored, nobody grades it. */
  ungraded: boolean;
  /** Submitted papers of the exam (the same for every question). */
  submitted: number;
  /** Papers whose answer the rules cannot score: an essay, a short text that matched nothing, a keyless question. */
  needsPerson: number;
  /** Of those, how many still wait for each marker; `second` is null without double marking. */
  waiting: { first: number; second: number | null };
  /** Papers whose first and second marks differ and no final mark settles them. */
  disagreements: number;
};

export type GradingOverview = {
  examId: string;
  secondMarking: boolean;
  released: boolean;
  questions: GradingOverviewQuestion[];
};

/** A paper whose two markers disagree on a question and no admin has settled it yet. */
export type GradingDisagreement = {
  questionId: string;
  position: number;
  /** The prompt's first words, for a list. */
  prompt: string;
  points: number;
  attemptId: string;
  candidateCode: string;
  /** Null until the exam's results are released. */
  candidateName: string | null;
  first: GradeView;
  second: GradeView;
};

export type GradingDisagreements = {
  examId: string;
  secondMarking: boolean;
  released: boolean;
  items: GradingDisagreement[];
};

export const GradeViewSchema = z.object({
  points: z.number(),
  comment: z.string(),
  by: z.string().describe("who gave the mark"),
  revision: z.number().int().min(1).describe("what the next change of this mark must send"),
  updatedAt: InstantSchema,
}) satisfies z.ZodType<GradeView>;

const GradesByMarkerSchema = z.object({
  first: GradeViewSchema.optional(),
  second: GradeViewSchema.optional(),
  final: GradeViewSchema.optional(),
});

export const GradingQueueSchema = z.object({
  examId: UuidSchema,
  question: z.object({
    id: UuidSchema,
    position: z.number().int(),
    type: z.string(),
    prompt: z.string(),
    rubric: z.string(),
    points: z.number(),
  }),
  marker: z.enum(GRADE_MARKERS),
  secondMarking: z.boolean(),
  items: z.array(
    z.object({
      attemptId: UuidSchema,
      candidateCode: z.string().describe("blind: stands for the candidate until results are released"),
      candidateName: z.string().nullable().describe("null until the exam's results are released"),
      value: z.union([z.string(), z.number(), z.array(z.string())]).nullable(),
      lateAnswerId: UuidSchema.nullable().describe("set when an accepted late answer is what is scored"),
      source: z.string(),
      reason: z.string(),
      points: z.number().nullable(),
      grades: GradesByMarkerSchema.describe("the marks this marker may see: their own; with marker=final, all"),
    }),
  ),
}) satisfies z.ZodType<GradingQueue>;

export const SavedGradeSchema = z.object({
  grade: GradeViewSchema,
  marker: z.enum(GRADE_MARKERS),
}) satisfies z.ZodType<{ grade: GradeView; marker: GradeMarker }>;
