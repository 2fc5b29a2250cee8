import { z } from "@/lib/shared/zod";

import { UuidSchema } from "@/lib/shared/schemas/attempts";
import {
  CSV_FILE_ERROR_CODES,
  CSV_LINE_ERROR_CODES,
  type CsvImportResult,
  type EnrolledCandidateListItem,
} from "@/lib/shared/schemas/enrollments";

import { Instant } from "./common";

/**
 * An exam's candidates and their join links, and a candidates CSV import. The 200/201 bodies as zod schemas, for the
 * routes' documentation (their `doc`, docs/api.md) and for clients that read them; each `satisfies` the type the
 * server builds its answer with, so the two cannot drift apart.
 */

export const JoinLinkSchema = z.discriminatedUnion("status", [
  z.object({ status: z.literal("active"), url: z.url(), generation: z.number().int() }),
  z.object({ status: z.literal("revoked"), revokedAt: Instant, generation: z.number().int() }),
]);

export const CandidateListSchema = z.object({
  candidates: z.array(
    z.object({
      id: UuidSchema,
      name: z.string(),
      email: z.string(),
      externalId: z.string().nullable().describe("the office's own id for the candidate (a student number)"),
      extraSeconds: z.number().int().min(0),
      joinLink: JoinLinkSchema,
      attempt: z
        .object({
          id: UuidSchema,
          status: z.enum(["in_progress", "submitted"]),
          startedAt: Instant,
          deadline: Instant,
          submittedAt: Instant.nullable(),
          submissionVersion: z.number().int().min(1).nullable(),
          reopenings: z.number().int().min(0).describe("times an admin reopened the attempt"),
        })
        .nullable(),
      createdAt: Instant,
    }),
  ),
}) satisfies z.ZodType<{ candidates: EnrolledCandidateListItem[] }>;

const CsvParamsSchema = z.record(z.string(), z.union([z.string(), z.number()]));

/** A CSV import or its preview; also `details` of a 422 refusing the file. */
export const CsvImportResultSchema = z.object({
  dryRun: z.boolean(),
  written: z.boolean().describe("true only when this request enrolled the file's new lines"),
  delimiter: z.enum([",", ";"]),
  summary: z.object({
    lines: z.number().int(),
    new: z.number().int(),
    unchanged: z.number().int(),
    errors: z.number().int(),
  }),
  fileErrors: z.array(
    z.object({ code: z.enum(CSV_FILE_ERROR_CODES), message: z.string(), params: CsvParamsSchema.optional() }),
  ),
  lines: z.array(
    z.object({
      line: z.number().int().min(1).describe("the physical line number in the file"),
      status: z.enum(["new", "unchanged", "error"]),
      name: z.string(),
      email: z.string(),
      extraSeconds: z.number().int().nullable(),
      enrollmentId: UuidSchema.optional(),
      errors: z.array(
        z.object({
          code: z.enum(CSV_LINE_ERROR_CODES),
          column: z.enum(["name", "email", "extra_minutes"]).optional(),
          message: z.string(),
          params: CsvParamsSchema.optional(),
        }),
      ),
    }),
  ),
}) satisfies z.ZodType<CsvImportResult>;

/** `PATCH /api/admin/exams/{examId}/candidates/{enrollmentId}`: what changed. */
export const CandidateExtraTimeSchema = z.object({
  outcome: z.enum(["extended", "pending_start", "unchanged", "lowered"]),
  extraSeconds: z.number().int().min(0),
  deadline: Instant.nullable().describe("the moved deadline when `extended`"),
});
