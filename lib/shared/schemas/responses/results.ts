import { z } from "@/lib/shared/zod";

import { ATTEMPT_STATUSES, UuidSchema } from "@/lib/shared/schemas/attempts";
import { QUESTION_TYPES, RESULTS_DETAILS } from "@/lib/shared/schemas/exams";
import { GRADE_MARKERS } from "@/lib/shared/schemas/grading";
import { RECEIPT_INVALID_REASONS, type ReceiptVerdict } from "@/lib/shared/schemas/receipts";
import {
  LATE_ANSWER_DECISIONS,
  type CandidateResult,
  type LateAnswerReview,
  type ReleaseState,
  RESULT_CAUSES,
  RESULT_SOURCES,
  type StaffAttemptResult,
} from "@/lib/shared/schemas/results";
import type { ExamResultsView, ExamStatisticsView, RegradeQueued } from "@/lib/shared/schemas/statistics";

import { Instant, Count } from "./common";

/**
 * Results, statistics, late answers and receipt checks. The 200/201 bodies as zod schemas, for the routes'
 * documentation (their `doc`, docs/api.md) and for clients that read them; each `satisfies` the type the server
 * builds its answer with, so the two cannot drift apart.
 */

export const CandidateResultSchema = z.object({
  attemptId: UuidSchema,
  examTitle: z.string(),
  score: z.number().describe("exact, at most four decimals"),
  maxScore: z.number(),
  graded: z.boolean().describe("false while an answer still waits for a person"),
  releasedAt: Instant.nullable(),
  questions: z
    .array(
      z.object({
        position: z.number().int().describe("as numbered on the candidate's own paper"),
        questionId: UuidSchema,
        points: z.number().nullable(),
        maxPoints: z.number(),
        comment: z.string().nullable(),
      }),
    )
    .nullable()
    .describe("null unless the exam shows per-question points"),
}) satisfies z.ZodType<CandidateResult>;

const StaffResultVersionSchema = z.object({
  version: z.number().int().min(1),
  cause: z.enum(RESULT_CAUSES),
  actorType: z.enum(["staff", "api-token", "system"]),
  by: z.string().describe("who caused this version: a staff member, the API token, or Holdfast"),
  reason: z.string().describe('why: "corrected: Q1 answerKey", a rejection\'s reason, or ""'),
  at: Instant,
  score: z.number(),
  maxScore: z.number(),
  pending: z.number().int().min(0).describe("answers waiting for a person in this version"),
  questions: z.array(
    z.object({
      questionId: UuidSchema,
      position: z.number().int().min(1).describe("the question's position in the exam"),
      type: z.enum(QUESTION_TYPES),
      points: z.number().nullable().describe("null while a person still has to decide"),
      maxPoints: z.number(),
      source: z.enum(RESULT_SOURCES),
      reason: z.string(),
      lateAnswerId: UuidSchema.nullable(),
    }),
  ),
});

export const StaffAttemptResultSchema = z.object({
  attemptId: UuidSchema,
  examId: UuidSchema,
  examTitle: z.string(),
  candidate: z.object({ enrollmentId: UuidSchema, name: z.string(), email: z.string() }),
  status: z.enum(ATTEMPT_STATUSES),
  submittedAt: Instant.nullable(),
  releasedAt: Instant.nullable(),
  resultsDetail: z.enum(RESULTS_DETAILS),
  secondMarking: z.boolean(),
  current: StaffResultVersionSchema.nullable().describe("the version the result holds now; null before the first"),
  isUpToDate: z.boolean().describe("false while a resubmitted paper's new result is not computed yet"),
  decisions: z.array(
    z.object({
      questionId: UuidSchema,
      marks: z.array(
        z.object({
          marker: z.enum(GRADE_MARKERS),
          points: z.number(),
          by: z.string(),
          comment: z.string(),
          at: Instant,
        }),
      ),
      lateAnswer: z
        .object({ lateAnswerId: UuidSchema, by: z.string(), reason: z.string(), at: Instant })
        .nullable()
        .describe("the accepted late answer the current result scores, with who accepted it"),
    }),
  ),
  versions: z.array(StaffResultVersionSchema).describe("every version, newest first; earlier ones never change"),
}) satisfies z.ZodType<StaffAttemptResult>;

export const ReleaseStateSchema = z.object({
  examId: UuidSchema,
  releasedAt: Instant.nullable(),
}) satisfies z.ZodType<ReleaseState>;

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
  releasedAt: Instant.nullable(),
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

export const LateAnswerReviewSchema = z.object({
  id: UuidSchema,
  attemptId: UuidSchema,
  candidateName: z.string(),
  candidateEmail: z.string(),
  questionId: UuidSchema,
  position: z.number().int(),
  value: z.unknown(),
  frozenValue: z.unknown().describe("what the frozen paper holds for that question (null: nothing)"),
  version: z.number().int(),
  deviceId: z.string(),
  via: z.string().describe("autosave, submit or export"),
  receivedAt: Instant,
  clientEditedAt: Instant.nullable().describe("the device's claim; informational only"),
  deadline: Instant,
  submittedAt: Instant.nullable(),
  decision: z
    .object({ decision: z.enum(LATE_ANSWER_DECISIONS), reason: z.string(), by: z.string(), at: Instant })
    .nullable(),
}) satisfies z.ZodType<LateAnswerReview>;

export const LateAnswerListSchema = z.object({ lateAnswers: z.array(LateAnswerReviewSchema) });

export const ReceiptVerdictSchema = z.object({
  valid: z.boolean(),
  reason: z
    .enum(RECEIPT_INVALID_REASONS)
    .nullable()
    .describe(
      "null when valid; signature: the signature does not match the fields; unknown_attempt: no such attempt; " +
        "unknown_submission: no submission of the attempt, current or earlier, has this time and digest",
    ),
  attemptId: UuidSchema,
  examId: UuidSchema.nullable(),
  examTitle: z.string().nullable(),
  candidateName: z.string().nullable(),
  candidateEmail: z.string().nullable(),
  submissionId: UuidSchema.nullable(),
  submittedAt: z.string().describe("as the receipt claims it"),
  version: z.number().int().nullable(),
  current: z.boolean().nullable().describe("the attempt's current submission (false: an earlier one, reopened since)"),
  supersededAt: Instant.nullable(),
  digestMatchesPaper: z
    .boolean()
    .nullable()
    .describe("the digest computed again from the frozen paper (or its snapshot in history) equals the receipt's"),
  claimed: z.object({
    examTitle: z.string().nullable(),
    candidateName: z.string().nullable(),
    submissionId: z.string().nullable(),
    source: z.string().nullable(),
    digest: z.string(),
  }),
}) satisfies z.ZodType<ReceiptVerdict>;
