import { z } from "@/lib/shared/zod";

import type { CandidateStatus } from "../proctor/live-status";
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from "../text";
import { UuidSchema } from "./attempts";
import { DeviceIdSchema } from "./sync";

/**
 * Shapes of the proctor API (docs/sync-protocol.md, "Proctor dashboard"). Times are epoch milliseconds by
 * the server's clock unless a field says otherwise; the dashboard corrects for its own clock with
 * `serverTime` of the snapshot and of every event.
 */

export const ATTEMPT_PHASES = ["not_started", "in_progress", "submitted", "auto_submitted"] as const;
export type AttemptPhase = (typeof ATTEMPT_PHASES)[number];

export const SUBMISSION_SOURCES = ["candidate", "proctor", "auto"] as const;

/** One device's latest heartbeat as the server holds it (Redis live copy, else the Postgres row). */
export const DeviceFactsSchema = z.object({
  deviceId: DeviceIdSchema,
  /** The device's own word in its last heartbeat. */
  online: z.boolean(),
  pending: z.number().int(),
  /** Age of the device's oldest unsynced edit when its last heartbeat was sent. */
  oldestPendingMs: z.number().int(),
  consecutiveFailures: z.number().int(),
  lastAckRevision: z.number().int(),
  storagePersisted: z.boolean().nullable(),
  firstSeenAt: z.number().int(),
  /** When its last heartbeat arrived. */
  lastHeartbeatAt: z.number().int(),
  /**
   * When the server saw its live channel close (the candidate page's event stream), if it is closed now:
   * the device left or went offline without being able to say so. Null while open or unknown.
   */
  disconnectedAt: z.number().int().nullable(),
  /**
   * Since when the device has been offline without a break, by its own report or its closed channel (the
   * start of its open offline span); null while online. Heartbeats that keep saying "offline" do not move it.
   */
  offlineSince: z.number().int().nullable(),
  /** The deadline (epoch ms) the device last said it shows; null if it never said. */
  deadlineSeen: z.number().int().nullable(),
});
export type DeviceFacts = z.infer<typeof DeviceFactsSchema>;

export const ExtensionSummarySchema = z.object({
  extensionId: UuidSchema,
  seconds: z.number().int(),
  reason: z.string(),
  by: z.string(),
  at: z.number().int(),
  /** The deadline this extension set; null when the candidate had not started (it waits in extraSeconds). */
  deadline: z.number().int().nullable(),
  /** When a device of the candidate first reported showing this deadline (or a later one). */
  acknowledgedAt: z.number().int().nullable(),
  acknowledgedBy: z.string().nullable(),
});
export type ExtensionSummary = z.infer<typeof ExtensionSummarySchema>;

/**
 * What the server knows about one candidate: the facts the live status is derived from. The snapshot and
 * every event carry these, and the dashboard derives the status from them with `deriveCandidateStatus`
 * (lib/shared/proctor/live-status.ts) every second, so time-driven changes (unreachable after 45 s,
 * at risk, time left) need no message.
 */
export const CandidateFactsSchema = z.object({
  enrollmentId: UuidSchema,
  attemptId: UuidSchema.nullable(),
  name: z.string(),
  email: z.string(),
  phase: z.enum(ATTEMPT_PHASES),
  startedAt: z.number().int().nullable(),
  /** Server deadline (epoch ms) of a started attempt; null before start. */
  deadline: z.number().int().nullable(),
  /**
   * When a proctor paused the running attempt (epoch ms, ADR 016), and why; null while it runs. Its time left
   * stands still at deadline − pausedAt.
   */
  pausedAt: z.number().int().nullable(),
  pauseReason: z.string().nullable(),
  /** Writes are accepted until deadline + grace. */
  graceSeconds: z.number().int(),
  extraSeconds: z.number().int(),
  revision: z.number().int(),
  answered: z.number().int(),
  total: z.number().int(),
  /** The latest time the server stored an answer of this attempt. */
  lastSaveAt: z.number().int().nullable(),
  submittedAt: z.number().int().nullable(),
  submissionSource: z.enum(SUBMISSION_SOURCES).nullable(),
  /** The submitting client's digest differed from the server's digest of the frozen paper. */
  digestMismatch: z.boolean(),
  lateAnswers: z.number().int(),
  /** Every device that ever sent a heartbeat for this attempt (durable), newest heartbeat first. */
  devices: z.array(DeviceFactsSchema),
  /** The most recent time extension, if any. */
  lastExtension: ExtensionSummarySchema.nullable(),
  /** When these facts were read; newer facts of the same candidate replace older ones. */
  observedAt: z.number().int(),
});
export type CandidateFacts = z.infer<typeof CandidateFactsSchema>;

/**
 * A candidate as the snapshot and the events stream send it: the facts, and the status derived from them at
 * the response's `serverTime` (for API clients; the dashboard re-derives every second from the facts).
 */
export type LiveCandidate = CandidateFacts & { status: CandidateStatus };

/** `GET /api/proctor/exams/{examId}/candidates`. */
export type CandidatesSnapshot = {
  examId: string;
  examTitle: string;
  serverTime: number;
  /** The events stream's id at the moment of the snapshot: pass it as Last-Event-ID to resume from here. */
  lastEventId: string | null;
  /** The whole exam is paused (ADR 016): since when (epoch ms) and why; null when it is not. */
  examPause: { pausedAt: number; reason: string } | null;
  candidates: LiveCandidate[];
  /** Derived at serverTime with the same function the dashboard uses. */
  counters: StatusCounters;
};

export type StatusCounters = {
  total: number;
  online: number;
  offline: number;
  unreachable: number;
  pending: number;
  failing: number;
  atRisk: number;
  notStarted: number;
  inProgress: number;
  submitted: number;
};

/**
 * Events on `GET /api/proctor/exams/{examId}/events` (Server-Sent Events). Every event has an `id`;
 * `event:` is one of the names below and `data:` is JSON.
 *
 * - `ready`      { serverTime, resumed } — first event of every connection. `resumed: false` means the
 *                 dashboard must reload the snapshot (it could not be resumed from Last-Event-ID).
 * - `candidates` { serverTime, candidates: LiveCandidate[] } — changed candidates, coalesced.
 * - `resync`     { serverTime, reason } — too much was missed: reload the snapshot.
 * Comments (`: keep-alive`) are sent every 15 s.
 */
export type ExamEventName = "ready" | "candidates" | "resync";

/**
 * The events' `data` as the dashboard reads them (lib/client/proctor/exam-event-stream.ts): an event that does
 * not match is ignored, like one that is not JSON. A `candidates` event's candidates are read as their facts
 * (the dashboard derives the status itself; the status the server adds is dropped).
 */
export const ExamReadyEventSchema = z.object({ serverTime: z.number().int(), resumed: z.boolean() });
export const ExamCandidatesEventSchema = z.object({
  serverTime: z.number().int(),
  candidates: z.array(CandidateFactsSchema),
});
export const ExamResyncEventSchema = z.object({ serverTime: z.number().int(), reason: z.string() });

/** The bounds of an extension, shared by the API's schema and the dashboard's form. */
export const EXTEND_LIMITS = {
  minSeconds: 60,
  maxSeconds: 24 * 3600,
  minReasonLength: 3,
  maxReasonLength: 500,
} as const;

export const ExtendSchema = z.object({
  seconds: z
    .number()
    .int("must be a whole number of seconds")
    .min(EXTEND_LIMITS.minSeconds, "must be at least 60 seconds")
    .max(EXTEND_LIMITS.maxSeconds, "must be at most 24 hours"),
  reason: z
    .string()
    .trim()
    .min(EXTEND_LIMITS.minReasonLength, "give a short reason (at least 3 characters)")
    .max(EXTEND_LIMITS.maxReasonLength, "must be at most 500 characters")
    .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE),
});
export type ExtendBody = z.infer<typeof ExtendSchema>;

/** `POST /api/proctor/exams/{examId}/extend`: the same extension for a selection of candidates. */
export const BulkExtendSchema = ExtendSchema.extend({
  enrollmentIds: z
    .array(UuidSchema)
    .min(1, "select at least one candidate")
    .max(10_000, "at most 10,000 candidates at once"),
});

/** `GET /api/proctor/exams/{examId}/health`. */
export type ExamHealth = {
  examId: string;
  serverTime: number;
  submissions: number;
  /**
   * Submissions whose paper may miss something — the device's digest differed from the server's, or late
   * answers arrived — over submissions; each submission counts once.
   */
  lossRate: number | null;
  digestMismatches: number;
  attemptsWithLateAnswers: number;
  /** Idempotent replays and ALREADY_SUBMITTED answers over submit requests, last hour. */
  duplicateRate: number | null;
  /** Last hour. */
  autosaveP99Ms: number | null;
  submitP99Ms: number | null;
  rateLimited: number;
  /** One point per minute of the last hour, oldest first. */
  series: HealthPoint[];
};

export type HealthPoint = {
  /** Start of the minute, epoch ms. */
  at: number;
  autosaves: number;
  submits: number;
  replays: number;
  rateLimited: number;
  autosaveP99Ms: number | null;
  submitP99Ms: number | null;
};

export const TIMELINE_KINDS = [
  "enrolled",
  "joined",
  "started",
  "device_first_seen",
  "device_switch",
  "offline",
  "online",
  "saves",
  "extended",
  "extension_acknowledged",
  "submitted",
  "late_answer",
  "late_answer_decided",
  "reopened",
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

/**
 * What one timeline entry says, by kind, as facts a page words in its reader's language (`text` is the
 * same words in English, for API clients). Devices are named by `deviceShortId` (proctor/device-id.ts: short
 * ids whole, the first 8 characters of a generated one), as in the candidate drawer; durations are seconds or
 * ms as named; `by`, `reason` and user agents are shown as written.
 */
export type TimelineFacts = {
  enrolled: Record<string, never>;
  /** `browser` and `os` as recognised; `userAgent` (shortened) only when neither was. */
  joined: { browser: string | null; os: string | null; userAgent: string | null };
  started: Record<string, never>;
  device_first_seen: { device: string };
  device_switch: { device: string; previousDevice: string };
  /** `reported`: the device said so; `disconnected`: its channel closed; `unreachable`: its heartbeats stopped. */
  offline: { device: string; cause: "reported" | "disconnected" | "unreachable" | null };
  online: { device: string; offlineMs: number };
  /** `device` only when the attempt used several. */
  saves: { count: number; device: string | null };
  extended: { seconds: number; by: string; reason: string; isWaitingForStart: boolean };
  extension_acknowledged: { device: string | null; seconds: number };
  submitted: {
    source: (typeof SUBMISSION_SOURCES)[number];
    forcedBy: string | null;
    forcedReason: string | null;
    isDigestMismatch: boolean;
  };
  late_answer: { position: number | null; device: string; via: "autosave" | "submit" | "export" };
  /** An admin accepted a late answer into the result, or rejected it (`reason` required then, optional else). */
  late_answer_decided: { position: number | null; decision: "accepted" | "rejected"; by: string; reason: string };
  /** An admin reopened the attempt (ADR 017): submission `version` stays on record, `seconds` of new time. */
  reopened: { by: string; reason: string; seconds: number; version: number };
};

/** One thing that happened in a candidate's attempt, as facts: what a timeline line is worded from. */
export type TimelineEvent = {
  [Kind in TimelineKind]: {
    at: number;
    kind: Kind;
    facts: TimelineFacts[Kind];
    deviceId?: string;
    /** For spans (offline) and grouped saves: when it ended; null while still going on. */
    until?: number | null;
  };
}[TimelineKind];

/** `GET /api/proctor/exams/{examId}/candidates/{enrollmentId}/timeline`: oldest first. */
export type TimelineEntry = TimelineEvent & {
  /** One line a proctor reads, in English: the dashboard's words (`proctorWords().timelineLine`) in English. */
  text: string;
};

export type CandidateTimeline = {
  enrollmentId: string;
  serverTime: number;
  entries: TimelineEntry[];
};
