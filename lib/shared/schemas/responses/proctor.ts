import { z } from "@/lib/shared/zod";

import { UuidSchema } from "@/lib/shared/schemas/attempts";
import type { PauseResponse } from "@/lib/shared/schemas/pauses";
import {
  CandidateFactsSchema,
  SUBMISSION_SOURCES,
  type CandidatesSnapshot,
  type CandidateTimeline,
  type ExamHealth,
  type TimelineEntry,
  type TimelineFacts,
  type TimelineKind,
} from "@/lib/shared/schemas/proctor";
import type { BulkExtendResponse, ExtendResponse, ForceSubmitResponse } from "@/lib/shared/schemas/proctor-actions";
import type { ReopenResponse } from "@/lib/shared/schemas/reopen";

import { Instant, EpochMs } from "./common";

/**
 * The proctor's actions and the live dashboard (instants there are epoch milliseconds). The 200/201 bodies as zod
 * schemas, for the routes' documentation (their `doc`, docs/api.md) and for clients that read them; each `satisfies`
 * the type the server builds its answer with, so the two cannot drift apart.
 */

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

/** One entry of each timeline kind: its facts as `TimelineFacts` (lib/shared/schemas/proctor.ts) says them. */
function timelineEntry<Kind extends TimelineKind, Facts extends z.ZodType<TimelineFacts[Kind]>>(
  kind: Kind,
  facts: Facts,
) {
  return z.object({
    at: EpochMs,
    kind: z.literal(kind),
    facts,
    deviceId: z.string().optional(),
    until: EpochMs.nullable().optional().describe("for spans and grouped saves: when it ended; null while ongoing"),
    text: z.string().describe("the same line in English"),
  });
}

const NothingSaid = z.object({});
const ShortDevice = z.string().describe("the device's short id (lib/shared/proctor/device-id.ts)");
const Position = z.number().int().nullable().describe("the question's position in the paper; null if unknown");

const TimelineEntrySchema = z.discriminatedUnion("kind", [
  timelineEntry("enrolled", NothingSaid),
  timelineEntry(
    "joined",
    z.object({ browser: z.string().nullable(), os: z.string().nullable(), userAgent: z.string().nullable() }),
  ),
  timelineEntry("started", NothingSaid),
  timelineEntry("device_first_seen", z.object({ device: ShortDevice })),
  timelineEntry("device_switch", z.object({ device: ShortDevice, previousDevice: ShortDevice })),
  timelineEntry(
    "offline",
    z.object({ device: ShortDevice, cause: z.enum(["reported", "disconnected", "unreachable"]).nullable() }),
  ),
  timelineEntry("online", z.object({ device: ShortDevice, offlineMs: z.number() })),
  timelineEntry("saves", z.object({ count: z.number().int(), device: ShortDevice.nullable() })),
  timelineEntry(
    "extended",
    z.object({ seconds: z.number().int(), by: z.string(), reason: z.string(), isWaitingForStart: z.boolean() }),
  ),
  timelineEntry("extension_acknowledged", z.object({ device: ShortDevice.nullable(), seconds: z.number().int() })),
  timelineEntry(
    "submitted",
    z.object({
      source: z.enum(SUBMISSION_SOURCES),
      forcedBy: z.string().nullable(),
      forcedReason: z.string().nullable(),
      isDigestMismatch: z.boolean(),
    }),
  ),
  timelineEntry(
    "late_answer",
    z.object({ position: Position, device: ShortDevice, via: z.enum(["autosave", "submit", "export"]) }),
  ),
  timelineEntry(
    "late_answer_decided",
    z.object({ position: Position, decision: z.enum(["accepted", "rejected"]), by: z.string(), reason: z.string() }),
  ),
  timelineEntry(
    "reopened",
    z.object({ by: z.string(), reason: z.string(), seconds: z.number().int(), version: z.number().int() }),
  ),
]) satisfies z.ZodType<TimelineEntry>;

export const CandidateTimelineSchema = z.object({
  enrollmentId: UuidSchema,
  serverTime: EpochMs,
  entries: z.array(TimelineEntrySchema).describe("oldest first; `facts` by `kind` (lib/shared/schemas/proctor.ts)"),
}) satisfies z.ZodType<CandidateTimeline>;
