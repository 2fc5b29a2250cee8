import "server-only";

import { z } from "zod";

import type { ExportKeyResponse } from "@/lib/shared/emergency-export";
import { ERROR_STATUS, type ErrorBody } from "@/lib/shared/errors";
import type { SentAnnouncement, StaffAnnouncement } from "@/lib/shared/schemas/announcements";
import { ATTEMPT_STATUSES, UuidSchema, type AttemptView } from "@/lib/shared/schemas/attempts";
import type { EnrolledCandidateListItem } from "@/lib/shared/schemas/enrollments";
import { OptionSchema, QUESTION_TYPES, RESULTS_DETAILS } from "@/lib/shared/schemas/exams";
import {
  GradeViewSchema,
  GRADE_MARKERS,
  type GradingDisagreements,
  type GradingOverview,
} from "@/lib/shared/schemas/grading";
import type { HeartbeatResponse } from "@/lib/shared/schemas/heartbeat";
import {
  LATE_ANSWER_DECISIONS,
  type CandidateResult,
  type LateAnswerReview,
  type ReleaseState,
  RESULT_CAUSES,
  RESULT_SOURCES,
  type StaffAttemptResult,
} from "@/lib/shared/schemas/results";
import {
  CandidateFactsSchema,
  SUBMISSION_SOURCES,
  TIMELINE_KINDS,
  type CandidatesSnapshot,
  type ExamHealth,
} from "@/lib/shared/schemas/proctor";
import type { PauseResponse } from "@/lib/shared/schemas/pauses";
import type { BulkExtendResponse, ExtendResponse, ForceSubmitResponse } from "@/lib/shared/schemas/proctor-actions";
import { StaffAccountSchema, StaffRoleSchema, type StaffAccount } from "@/lib/shared/schemas/staff";
import type { AutosaveResponse, SubmitResponse } from "@/lib/shared/schemas/sync";

import type { JoinLinkChange } from "../enrollments/change-join-link";
import type { EnrolledCandidate } from "../enrollments/enroll-candidates";
import type { Health } from "../health/check-health";
import type { ExamStaffEntry } from "../staff/exam-staff";

/**
 * The 200/201 bodies of the API as zod schemas, for the OpenAPI document (./registry.ts). Each one
 * `satisfies` the type the server builds its answer with, so a field added to or removed from a response
 * type fails the type check here until the document says the same. Instants are ISO 8601 strings unless a
 * field says epoch milliseconds (the proctor API).
 */

const Instant = z.iso.datetime({ offset: true });
const EpochMs = z.number().int().describe("epoch milliseconds, server clock");
const AnswerValueSchema = z.union([z.string(), z.number(), z.array(z.string())]);

/** `{ "error": { "code", "message", "details"? } }`: every refusal, every status. */
export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS, ...(keyof typeof ERROR_STATUS)[]]),
    message: z.string().describe("English, for people; clients switch on `code`"),
    details: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "`issues` ([{ path, message }]) for VALIDATION_FAILED, `submissionId` for ALREADY_SUBMITTED, `requestId` for 500/503",
      ),
  }),
}) satisfies z.ZodType<ErrorBody>;

export const EnrolledCandidatesSchema = z.object({
  candidates: z.array(
    z.object({
      id: UuidSchema,
      name: z.string(),
      email: z.string(),
      extraSeconds: z.number().int().min(0),
      joinToken: z.string(),
      joinUrl: z.url(),
    }),
  ),
}) satisfies z.ZodType<{ candidates: EnrolledCandidate[] }>;

const JoinLinkSchema = z.discriminatedUnion("status", [
  z.object({ status: z.literal("active"), url: z.url(), generation: z.number().int() }),
  z.object({ status: z.literal("revoked"), revokedAt: Instant, generation: z.number().int() }),
]);

export const CandidateListSchema = z.object({
  candidates: z.array(
    z.object({
      id: UuidSchema,
      name: z.string(),
      email: z.string(),
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

export const JoinLinkChangeSchema = z.object({
  enrollmentId: UuidSchema,
  joinLink: JoinLinkSchema,
  endedSessions: z.number().int().min(0).describe("candidate sessions (devices) that ended with the old link"),
}) satisfies z.ZodType<JoinLinkChange>;

export const StaffListSchema = z.object({ staff: z.array(StaffAccountSchema) }) satisfies z.ZodType<{
  staff: StaffAccount[];
}>;

export const StaffAccountResponseSchema = z.object({ account: StaffAccountSchema }) satisfies z.ZodType<{
  account: StaffAccount;
}>;

const ExamStaffEntrySchema = z.object({ id: UuidSchema, name: z.string(), email: z.string(), disabled: z.boolean() });

export const ExamProctorsSchema = z.object({
  proctors: z.array(ExamStaffEntrySchema),
}) satisfies z.ZodType<{ proctors: ExamStaffEntry[] }>;

export const ExamGradersSchema = z.object({
  graders: z.array(ExamStaffEntrySchema),
}) satisfies z.ZodType<{ graders: ExamStaffEntry[] }>;

export const CandidateSessionSchema = z.object({
  examId: UuidSchema,
  enrollmentId: UuidSchema,
  expiresAt: Instant,
});

export const StaffSessionSchema = z.object({
  role: StaffRoleSchema,
  mustChangePassword: z
    .boolean()
    .describe("the password is an admin's temporary one: only PUT /api/staff/password works until it changes"),
  expiresAt: Instant,
});

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

export { EmergencyImportResultSchema } from "@/lib/shared/schemas/emergency-export";

export const ExtendResponseSchema = z.object({
  extensionId: UuidSchema,
  enrollmentId: UuidSchema,
  attemptId: UuidSchema.nullable(),
  seconds: z.number().int(),
  previousDeadline: Instant.nullable(),
  deadline: Instant.nullable(),
  outcome: z.enum(["extended", "pending_start"]),
}) satisfies z.ZodType<ExtendResponse>;

export const PauseResponseSchema = z.discriminatedUnion("action", [
  z.object({
    action: z.literal("pause"),
    pausedAt: Instant.describe("the database's clock when the pause took effect"),
    attempts: z.number().int().min(0).describe("running attempts this request paused (0: all already paused)"),
    enrollmentIds: z.array(UuidSchema).nullable().describe("the selection, sorted; null for the whole exam"),
  }),
  z.object({
    action: z.literal("resume"),
    resumedAt: Instant.describe("the database's clock when the resume took effect"),
    attempts: z.number().int().min(0).describe("paused attempts this request resumed"),
    enrollmentIds: z.array(UuidSchema).nullable().describe("the selection, sorted; null for the whole exam"),
  }),
]) satisfies z.ZodType<PauseResponse>;

export const BulkExtendResponseSchema = z.object({
  results: z.array(
    z.object({
      enrollmentId: z.string(),
      outcome: z.enum(["extended", "pending_start", "already_submitted", "not_found"]),
      extensionId: z.string().optional(),
      deadline: Instant.optional(),
      submissionId: z.string().optional(),
      replayed: z.boolean().optional(),
    }),
  ),
}) satisfies z.ZodType<BulkExtendResponse>;

export const ForceSubmitResponseSchema = z.object({
  submissionId: UuidSchema,
  submittedAt: Instant,
  digest: z.string(),
  source: z.enum(SUBMISSION_SOURCES),
  alreadySubmitted: z.boolean(),
}) satisfies z.ZodType<ForceSubmitResponse>;

const StatusCountersSchema = z.object({
  total: z.number().int(),
  online: z.number().int(),
  offline: z.number().int(),
  unreachable: z.number().int(),
  pending: z.number().int(),
  failing: z.number().int(),
  atRisk: z.number().int(),
  notStarted: z.number().int(),
  inProgress: z.number().int(),
  submitted: z.number().int(),
});

/** The derived status; its exact fields are lib/shared/proctor/live-status.ts's `CandidateStatus`. */
const CandidateStatusSchema = z
  .object({
    connection: z.enum(["online", "offline", "unreachable", "never"]),
    sync: z.enum(["synced", "pending", "failing", "unknown", "none"]),
    pending: z.number().int(),
    oldestPendingMs: z.number().nullable(),
    lastSeenAt: EpochMs.nullable(),
    timeLeftMs: z.number().nullable(),
    isAtRisk: z.boolean(),
    atRiskReason: z.object({ code: z.string() }).loose().nullable(),
    devicesUsed: z.number().int(),
    devices: z.array(z.object({ deviceId: z.string() }).loose()),
    isExtensionAcknowledged: z.boolean().nullable(),
  })
  .loose();

export const CandidatesSnapshotSchema = z.object({
  examId: UuidSchema,
  examTitle: z.string(),
  serverTime: EpochMs,
  lastEventId: z.string().nullable().describe("pass as Last-Event-ID to the events stream to resume from here"),
  examPause: z
    .object({ pausedAt: EpochMs, reason: z.string() })
    .nullable()
    .describe("the whole exam is paused (since when, why); null when it is not"),
  candidates: z.array(CandidateFactsSchema.extend({ status: CandidateStatusSchema })),
  counters: StatusCountersSchema,
}) satisfies z.ZodType<Omit<CandidatesSnapshot, "candidates">>;

const HealthPointSchema = z.object({
  at: EpochMs,
  autosaves: z.number().int(),
  submits: z.number().int(),
  replays: z.number().int(),
  rateLimited: z.number().int(),
  autosaveP99Ms: z.number().nullable(),
  submitP99Ms: z.number().nullable(),
});

export const ExamHealthSchema = z.object({
  examId: UuidSchema,
  serverTime: EpochMs,
  submissions: z.number().int(),
  lossRate: z.number().nullable(),
  digestMismatches: z.number().int(),
  attemptsWithLateAnswers: z.number().int(),
  duplicateRate: z.number().nullable(),
  autosaveP99Ms: z.number().nullable(),
  submitP99Ms: z.number().nullable(),
  rateLimited: z.number().int(),
  series: z.array(HealthPointSchema),
}) satisfies z.ZodType<ExamHealth>;

export const CandidateTimelineSchema = z.object({
  enrollmentId: UuidSchema,
  serverTime: EpochMs,
  entries: z.array(
    z.object({
      at: EpochMs,
      kind: z.enum(TIMELINE_KINDS),
      facts: z.record(z.string(), z.unknown()).describe("what happened, by kind (lib/shared/schemas/proctor.ts)"),
      deviceId: z.string().optional(),
      until: EpochMs.nullable().optional(),
      text: z.string().describe("the same line in English"),
    }),
  ),
});

export const HealthSchema = z.object({
  status: z.enum(["ok", "degraded", "down"]),
  postgres: z.enum(["up", "down"]),
  redis: z.enum(["up", "down", "not-configured"]),
  mode: z.enum(["redis", "single-instance"]),
  redisBreaker: z
    .enum(["closed", "open", "half-open", "disabled"])
    .describe("the Redis breaker: open while Redis is skipped after failing (status degraded)"),
  serverTime: Instant,
}) satisfies z.ZodType<Health>;

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

// Results delivery (issue 16): the schemas live beside the request schemas, in lib/shared/schemas/webhooks.ts.
export {
  CreatedWebhookSchema,
  ResultsFeedSchema,
  RotatedSecretSchema,
  WebhookAlertsSchema,
  WebhookDeliveryDetailSchema,
  WebhookDeliverySchema,
  WebhookEndpointSchema,
} from "@/lib/shared/schemas/webhooks";

// The bodies the staff pages read (issue 37): the schemas live beside their types in lib/shared/schemas, so the
// page parses what it receives (lib/client/call-api.ts) with the schema this document is written from.
export { AuditPageSchema } from "@/lib/shared/schemas/audit";
export { CandidateExtraTimeSchema, CsvImportResultSchema } from "@/lib/shared/schemas/enrollments";
export { AdminExamSchema, ExamEditsSchema } from "@/lib/shared/schemas/exams";
export { GradingQueueSchema, SavedGradeSchema } from "@/lib/shared/schemas/grading";
export { QtiImportResultSchema } from "@/lib/shared/schemas/qti";
export { ReceiptVerdictSchema } from "@/lib/shared/schemas/receipts";
export { ReopenResponseSchema } from "@/lib/shared/schemas/reopen";
export { StaffWithPasswordSchema } from "@/lib/shared/schemas/staff";
export { ExamResultsSchema, ExamStatisticsSchema, RegradeQueuedSchema } from "@/lib/shared/schemas/statistics";
