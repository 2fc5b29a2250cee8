import { z } from "@/lib/shared/zod";

import { UuidSchema } from "@/lib/shared/schemas/attempts";
import {
  GRADE_MARKERS,
  type GradeMarker,
  type GradeView,
  type GradingDisagreements,
  type GradingOverview,
  type GradingQueue,
} from "@/lib/shared/schemas/grading";

import { Instant } from "./common";

/**
 * Grading queues, the grading overview, disagreements and a saved mark. The 200/201 bodies as zod schemas, for the
 * routes' documentation (their `doc`, docs/api.md) and for clients that read them; each `satisfies` the type the
 * server builds its answer with, so the two cannot drift apart.
 */

export const GradeViewSchema = z.object({
  points: z.number(),
  comment: z.string(),
  by: z.string().describe("who gave the mark"),
  revision: z.number().int().min(1).describe("what the next change of this mark must send"),
  updatedAt: Instant,
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

export const GradingOverviewSchema = z.object({
  examId: UuidSchema,
  secondMarking: z.boolean().describe("double marking: a first and a second marker mark every answer"),
  released: z.boolean().describe("whether the results are released (names are shown to graders only then)"),
  questions: z.array(
    z.object({
      id: UuidSchema,
      position: z.number().int(),
      type: z.string(),
      prompt: z.string().describe("the prompt's first words"),
      points: z.number(),
      ungraded: z.boolean().describe("a survey item: never scored"),
      submitted: z.number().int().min(0).describe("submitted papers of the exam"),
      needsPerson: z.number().int().min(0).describe("papers the rules leave to a person"),
      waiting: z.object({
        first: z.number().int().min(0),
        second: z.number().int().min(0).nullable().describe("null without double marking"),
      }),
      disagreements: z.number().int().min(0).describe("double marks that differ, not settled yet"),
    }),
  ),
}) satisfies z.ZodType<GradingOverview>;

export const GradingDisagreementsSchema = z.object({
  examId: UuidSchema,
  secondMarking: z.boolean().describe("without double marking nothing ever needs settling"),
  released: z.boolean(),
  items: z.array(
    z.object({
      questionId: UuidSchema,
      position: z.number().int(),
      prompt: z.string().describe("the prompt's first words"),
      points: z.number(),
      attemptId: UuidSchema,
      candidateCode: z.string().describe("blind: stands for the candidate until results are released"),
      candidateName: z.string().nullable().describe("null until the exam's results are released"),
      first: GradeViewSchema,
      second: GradeViewSchema,
    }),
  ),
}) satisfies z.ZodType<GradingDisagreements>;

export const SavedGradeSchema = z.object({
  grade: GradeViewSchema,
  marker: z.enum(GRADE_MARKERS),
}) satisfies z.ZodType<{ grade: GradeView; marker: GradeMarker }>;
