import { z } from "@/lib/shared/zod";

import { UuidSchema } from "./attempts";
import { QUESTION_TYPES } from "./constants";
import type { QuestionType } from "./exams";
import { InstantSchema } from "./instant";

/**
 * `GET /api/admin/exams/{examId}/statistics`: the figures of lib/shared/statistics/item-statistics.ts over the
 * exam's scored papers, in points (exact to a unit, 1/10,000 point). A figure that is not defined (one paper,
 * no spread, a zero-point question) is null, never a made-up 0.
 */
export type ExamStatisticsView = {
  examId: string;
  /** Submitted papers. */
  submitted: number;
  /** Submitted papers whose result is computed (the rest are queued, a second or so). */
  scored: number;
  /** Scored papers with at least one answer waiting for a person. */
  waitingForPerson: number;
  maxScore: number;
  mean: number | null;
  median: number | null;
  standardDeviation: number | null;
  cronbachAlpha: number | null;
  /** Ten equal-width bins of totals over 0..maxScore, the last one closed. */
  histogram: { from: number; to: number; count: number }[];
  questions: QuestionStatisticsView[];
};

export type QuestionStatisticsView = {
  questionId: string;
  position: number;
  type: QuestionType;
  /** 0 for an ungraded survey item (which counts for nothing). */
  points: number;
  ungraded: boolean;
  /** Papers with a decided score for this question. */
  decided: number;
  facility: number | null;
  discrimination: number | null;
  /** How many decided papers earned each distinct score, ascending. */
  distribution: { points: number; count: number }[];
  /** Scored papers whose frozen answer to this question is missing, empty or white space, or no choice. */
  blank: number;
  /**
   * From an answer's first save to its last, on the server: the median over the answered scored papers whose
   * first save is known (`known` of them; answers stored before it was recorded are not), in seconds (one
   * decimal); null when none is known.
   */
  editTime: { medianSeconds: number | null; known: number };
  /** Choice questions: how many scored papers chose each option, in the authored order; else null. */
  options: { optionId: string; label: string; count: number }[] | null;
};

/** `GET /api/admin/exams/{examId}/results`: the release state and each enrolled candidate's result. */
export type ExamResultsView = {
  examId: string;
  releasedAt: string | null;
  maxScore: number;
  candidates: CandidateResultRow[];
};

export type CandidateResultRow = {
  enrollmentId: string;
  name: string;
  email: string;
  attemptId: string | null;
  status: "not_started" | "in_progress" | "submitted";
  /** Null until the paper is scored. */
  score: number | null;
  /** True when the paper is scored and no answer waits for a person. */
  graded: boolean;
};

/** `POST /api/admin/exams/{examId}/results/regrade` answer. */
export type RegradeQueued = { examId: string; queued: number };

const Count = z.number().int().min(0);

export const ExamStatisticsSchema = z.object({
  examId: UuidSchema,
  submitted: Count.describe("submitted papers"),
  scored: Count.describe("submitted papers whose result is computed (the rest are queued, a second or so)"),
  waitingForPerson: Count.describe("scored papers with an answer still waiting for a person"),
  maxScore: z.number(),
  mean: z.number().nullable(),
  median: z.number().nullable(),
  standardDeviation: z.number().nullable().describe("sample (n − 1)"),
  cronbachAlpha: z.number().nullable().describe("over the papers whose every question is decided"),
  histogram: z
    .array(z.object({ from: z.number(), to: z.number(), count: Count }))
    .describe("ten equal-width bins of totals over 0..maxScore, the last one closed"),
  questions: z.array(
    z.object({
      questionId: UuidSchema,
      position: z.number().int(),
      type: z.enum(QUESTION_TYPES),
      points: z.number().describe("0 for an ungraded survey item"),
      ungraded: z.boolean(),
      decided: Count.describe("papers with a decided score for this question"),
      facility: z.number().nullable().describe("mean score ÷ maximum, 0..1"),
      discrimination: z.number().nullable().describe("correlation of the item score with the rest of the test"),
      distribution: z.array(z.object({ points: z.number(), count: Count })),
      blank: Count.describe("scored papers that left it blank"),
      editTime: z
        .object({
          medianSeconds: z.number().nullable().describe("median seconds from the answer's first save to its last"),
          known: Count.describe("answered scored papers whose first save is known"),
        })
        .describe("time from first to last edit, as the server saw the saves"),
      options: z
        .array(z.object({ optionId: z.string(), label: z.string(), count: Count }))
        .nullable()
        .describe("choice questions: how many scored papers chose each option; else null"),
    }),
  ),
}) satisfies z.ZodType<ExamStatisticsView>;

export const ExamResultsSchema = z.object({
  examId: UuidSchema,
  releasedAt: InstantSchema.nullable(),
  maxScore: z.number(),
  candidates: z.array(
    z.object({
      enrollmentId: UuidSchema,
      name: z.string(),
      email: z.string(),
      attemptId: UuidSchema.nullable(),
      status: z.enum(["not_started", "in_progress", "submitted"]),
      score: z.number().nullable().describe("null until the paper is scored"),
      graded: z.boolean().describe("scored and no answer waits for a person"),
    }),
  ),
}) satisfies z.ZodType<ExamResultsView>;

export const RegradeQueuedSchema = z.object({
  examId: UuidSchema,
  queued: Count.describe("submitted papers queued to be scored again"),
}) satisfies z.ZodType<RegradeQueued>;
