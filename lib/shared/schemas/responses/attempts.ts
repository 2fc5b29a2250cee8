import { z } from "@/lib/shared/zod";

import type { EmergencyImportResult, ExportKeyResponse } from "@/lib/shared/emergency-export";
import type { SentAnnouncement, StaffAnnouncement } from "@/lib/shared/schemas/announcements";
import { ATTEMPT_STATUSES, UuidSchema, type AttemptView } from "@/lib/shared/schemas/attempts";
import { OptionSchema, QUESTION_TYPES } from "@/lib/shared/schemas/exams";
import type { HeartbeatResponse } from "@/lib/shared/schemas/heartbeat";
import { SUBMISSION_SOURCES } from "@/lib/shared/schemas/proctor";
import type { AutosaveResponse, SubmitResponse } from "@/lib/shared/schemas/sync";

import { Instant, AnswerValueSchema } from "./common";

/**
 * The candidate's attempt, its sync answers and its emergency file, and the staff's announcements. The 200/201
 * bodies as zod schemas, for the routes' documentation (their `doc`, docs/api.md) and for clients that read them;
 * each `satisfies` the type the server builds its answer with, so the two cannot drift apart.
 */

export const AttemptViewSchema = z.object({
  attemptId: UuidSchema,
  examId: UuidSchema,
  examTitle: z.string(),
  status: z.enum(ATTEMPT_STATUSES),
  startedAt: Instant,
  deadline: Instant,
  acceptsUntil: Instant.describe("deadline + grace: writes are accepted until then"),
  serverTime: Instant,
  pausedAt: Instant.nullable().describe("when a proctor paused the attempt; null while it runs (ADR 016)"),
  pauseReason: z.string().nullable().describe("the proctor's reason for the pause; null while it runs"),
  revision: z.number().int().min(0),
  questions: z.array(
    z.object({
      id: UuidSchema,
      position: z.number().int(),
      type: z.enum(QUESTION_TYPES),
      prompt: z.string(),
      points: z.number(),
      options: z.array(OptionSchema).optional(),
    }),
  ),
  answers: z.array(
    z.object({ questionId: UuidSchema, value: AnswerValueSchema, version: z.number().int(), deviceId: z.string() }),
  ),
  submission: z
    .object({
      submissionId: UuidSchema,
      submittedAt: Instant,
      digest: z.string(),
      source: z.enum(SUBMISSION_SOURCES).optional(),
      version: z.number().int().min(1).optional(),
    })
    .nullable(),
  announcements: z
    .array(z.object({ id: UuidSchema, message: z.string(), sentAt: Instant }))
    .describe("staff's announcements to this candidate, oldest first"),
  earlierSubmissions: z
    .array(
      z.object({
        submissionId: UuidSchema,
        version: z.number().int().min(1),
        submittedAt: Instant,
        digest: z.string(),
        source: z.enum(SUBMISSION_SOURCES),
        receipt: z.string(),
        supersededAt: Instant,
      }),
    )
    .optional()
    .describe("submissions an admin has since reopened, oldest first, with their receipts"),
}) satisfies z.ZodType<AttemptView>;

export const SentAnnouncementSchema = z.object({
  id: UuidSchema,
  message: z.string().describe("as stored: trimmed"),
  sentAt: Instant,
  enrollmentIds: z.array(UuidSchema).nullable().describe("null: every candidate of the exam"),
}) satisfies z.ZodType<SentAnnouncement>;

export const StaffAnnouncementsSchema = z.object({
  announcements: z
    .array(
      SentAnnouncementSchema.extend({
        sentBy: z.string(),
        recipients: z.number().int().min(0).describe("candidates it is for, started or not"),
        receivedCandidates: z.number().int().min(0).describe("of them, those with a device that stored it"),
        receivedDevices: z.number().int().min(0),
      }) satisfies z.ZodType<StaffAnnouncement>,
    )
    .describe("newest first"),
});

export const AutosaveResponseSchema = z.object({
  revision: z.number().int().min(0),
  serverTime: Instant,
  deadline: Instant,
  results: z.array(
    z.union([
      z.object({ questionId: z.string(), status: z.enum(["applied", "duplicate"]), version: z.number().int() }),
      z.object({
        questionId: z.string(),
        status: z.literal("stale"),
        version: z.number().int(),
        value: AnswerValueSchema,
        deviceId: z.string(),
      }),
    ]),
  ),
}) satisfies z.ZodType<AutosaveResponse>;

export const SubmitResponseSchema = z.object({
  submissionId: UuidSchema,
  attemptId: UuidSchema,
  submittedAt: Instant,
  source: z.enum(SUBMISSION_SOURCES),
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  clientDigest: z.string().nullable(),
  digestMatches: z.boolean().nullable(),
  receipt: z.string(),
  serverTime: Instant,
  deadline: Instant,
}) satisfies z.ZodType<SubmitResponse>;

export const HeartbeatResponseSchema = z.object({
  serverTime: Instant,
  deadline: Instant,
  revision: z.number().int().min(0),
  status: z.enum(ATTEMPT_STATUSES),
  pausedAt: Instant.nullable().optional().describe("when a proctor paused the attempt; null while it runs (ADR 016)"),
  pauseReason: z.string().nullable().optional().describe("the proctor's reason for the pause"),
}) satisfies z.ZodType<HeartbeatResponse>;

export const ExportKeyResponseSchema = z.object({
  attemptId: UuidSchema,
  v: z.literal(1),
  publicKey: z.string().describe("P-256 public key, base64url"),
}) satisfies z.ZodType<ExportKeyResponse>;

export const EmergencyImportResultSchema = z.object({
  attemptId: UuidSchema,
  examId: UuidSchema,
  candidate: z.object({ name: z.string(), email: z.string() }),
  deviceId: z.string(),
  createdAt: z.string(),
  mode: z.enum(["applied", "late"]),
  counts: z.object({
    applied: z.number().int(),
    duplicate: z.number().int(),
    stale: z.number().int(),
    late: z.number().int(),
  }),
}) satisfies z.ZodType<EmergencyImportResult>;
