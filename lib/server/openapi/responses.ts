import "server-only";

import { z } from "zod";

import type { EmergencyImportResult, ExportKeyResponse } from "@/lib/shared/emergency-export";
import { ERROR_STATUS, type ErrorBody } from "@/lib/shared/errors";
import type { SentAnnouncement, StaffAnnouncement } from "@/lib/shared/schemas/announcements";
import { ATTEMPT_STATUSES, UuidSchema, type AttemptView } from "@/lib/shared/schemas/attempts";
import {
  CSV_FILE_ERROR_CODES,
  CSV_LINE_ERROR_CODES,
  type CsvImportResult,
  type EnrolledCandidateListItem,
} from "@/lib/shared/schemas/enrollments";
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
import {
  GRADE_MARKERS,
  type GradeMarker,
  type GradeView,
  type GradingDisagreements,
  type GradingOverview,
  type GradingQueue,
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
import { RECEIPT_INVALID_REASONS, type ReceiptVerdict } from "@/lib/shared/schemas/receipts";
import { QTI_ITEM_PROBLEMS, type QtiImportResult } from "@/lib/shared/schemas/qti";
import type { ExamResultsView, ExamStatisticsView, RegradeQueued } from "@/lib/shared/schemas/statistics";
import {
  CandidateFactsSchema,
  SUBMISSION_SOURCES,
  TIMELINE_KINDS,
  type CandidatesSnapshot,
  type ExamHealth,
} from "@/lib/shared/schemas/proctor";
import type { PauseResponse } from "@/lib/shared/schemas/pauses";
import type { BulkExtendResponse, ExtendResponse, ForceSubmitResponse } from "@/lib/shared/schemas/proctor-actions";
import { AuditActorTypeSchema, type AuditPage } from "@/lib/shared/schemas/audit";
import type { ReopenResponse } from "@/lib/shared/schemas/reopen";
import { StaffRoleSchema, type StaffAccount } from "@/lib/shared/schemas/staff";
import type { AutosaveResponse, SubmitResponse } from "@/lib/shared/schemas/sync";

import type { JoinLinkChange } from "../enrollments/change-join-link";
import type { EnrolledCandidate } from "../enrollments/enroll-candidates";
import type { ExtraTimeChange } from "../extensions/extend-candidate";
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

export const CandidateExtraTimeSchema = z.object({
  outcome: z.enum(["extended", "pending_start", "unchanged", "lowered"]),
  extraSeconds: z.number().int().min(0),
  deadline: Instant.nullable().describe("the moved deadline when `extended`"),
}) satisfies z.ZodType<{
  outcome: Exclude<ExtraTimeChange["outcome"], "already_submitted">;
  extraSeconds: number;
  deadline: string | null;
}>;

export const JoinLinkChangeSchema = z.object({
  enrollmentId: UuidSchema,
  joinLink: JoinLinkSchema,
  endedSessions: z.number().int().min(0).describe("candidate sessions (devices) that ended with the old link"),
}) satisfies z.ZodType<JoinLinkChange>;

const StaffAccountSchema = z.object({
  id: UuidSchema,
  email: z.string(),
  name: z.string(),
  role: StaffRoleSchema,
  disabledAt: Instant.nullable(),
  mustChangePassword: z.boolean(),
  passwordChangedAt: Instant.describe("send back as a password reset's `passwordChangedAt`"),
  createdAt: Instant,
  exams: z.array(z.object({ id: UuidSchema, title: z.string() })).describe("the exams a proctor is assigned to"),
}) satisfies z.ZodType<StaffAccount>;

export const StaffListSchema = z.object({ staff: z.array(StaffAccountSchema) }) satisfies z.ZodType<{
  staff: StaffAccount[];
}>;

export const StaffAccountResponseSchema = z.object({ account: StaffAccountSchema }) satisfies z.ZodType<{
  account: StaffAccount;
}>;

export const StaffWithPasswordSchema = z.object({
  account: StaffAccountSchema,
  temporaryPassword: z.string().nullable().describe("shown in this response only; changed at first sign-in"),
}) satisfies z.ZodType<{ account: StaffAccount; temporaryPassword: string | null }>;

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

export const ReopenResponseSchema = z.object({
  reopeningId: UuidSchema,
  attemptId: UuidSchema,
  supersededSubmissionId: UuidSchema,
  supersededVersion: z.number().int().min(1),
  seconds: z.number().int(),
  reason: z.string(),
  previousDeadline: Instant,
  deadline: Instant.describe("now + seconds by the database's clock, capped at the exam's closesAt"),
  status: z.literal("in_progress"),
}) satisfies z.ZodType<ReopenResponse>;

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

const AuditPersonSchema = z.object({ id: UuidSchema, name: z.string(), email: z.string() });

export const AuditPageSchema = z.object({
  entries: z.array(
    z.object({
      id: UuidSchema,
      at: Instant,
      actor: z.object({
        type: AuditActorTypeSchema,
        id: UuidSchema.nullable().describe("the staff user's or candidate's id; null for the API token and the system"),
        name: z.string().nullable().describe("their name on record now"),
        email: z.string().nullable(),
      }),
      action: z.string().describe("one of the kinds in lib/shared/audit-actions.ts"),
      examId: UuidSchema.nullable(),
      examTitle: z.string().nullable().describe("the exam's title now, or at its deletion"),
      candidate: AuditPersonSchema.nullable().describe("the candidate the event is about"),
      staffMember: AuditPersonSchema.nullable().describe("the staff member the event is about"),
      attemptId: UuidSchema.nullable(),
      data: z.record(z.string(), z.unknown()).describe("the kind's own facts (counts, seconds, reason, ...)"),
    }),
  ),
  nextCursor: z.string().nullable().describe("pass as `cursor` for the next (older) page; null at the end"),
}) satisfies z.ZodType<AuditPage>;

const GradeViewSchema = z.object({
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
