import * as r from "./reader";

/**
 * Events of a candidate page's own stream, `GET /api/attempts/{attemptId}/events?deviceId=…`
 * (docs/sync-protocol.md, "Proctor dashboard" and "Proctor actions"). The server writes them with these
 * types; the page reads them with these readers (./reader.ts: the exam page ships them, zod it does not).
 */
export const ATTEMPT_EVENTS = [
  "ready",
  "deadline",
  "submitted",
  "announcement",
  "paused",
  "resumed",
  "reopened",
] as const;

/**
 * First event of every connection: the attempt's deadline, status and pause now (`pausedAt` and `pauseReason`
 * null while it runs), so a page that missed a "paused" or "resumed" while offline is right again. The server
 * always sends the pause; a reader treats its absence as "not said".
 */
export type AttemptReadyEvent = {
  serverTime: string;
  deadline: string;
  status: "in_progress" | "submitted";
  pausedAt?: string | null;
  pauseReason?: string | null;
};
export const AttemptReadyEventSchema = r.object({
  serverTime: r.instant,
  deadline: r.instant,
  status: r.oneOf(["in_progress", "submitted"]),
  pausedAt: r.optional(r.nullable(r.instant)),
  pauseReason: r.optional(r.nullable(r.string)),
}) satisfies r.Reader<AttemptReadyEvent>;

/** A proctor moved the deadline. */
export type AttemptDeadlineEvent = { serverTime: string; deadline: string };
export const AttemptDeadlineEventSchema = r.object({
  serverTime: r.instant,
  deadline: r.instant,
}) satisfies r.Reader<AttemptDeadlineEvent>;

/** The attempt was submitted elsewhere (another device, a proctor, the deadline). */
export type AttemptSubmittedEvent = { serverTime: string };
export const AttemptSubmittedEventSchema = r.object({
  serverTime: r.instant,
}) satisfies r.Reader<AttemptSubmittedEvent>;

/** Staff sent this candidate an announcement (docs/sync-protocol.md, "Announcements"). */
export type AttemptAnnouncementEvent = { id: string; message: string; sentAt: string };
export const AttemptAnnouncementEventSchema = r.object({
  id: r.string,
  message: r.string,
  sentAt: r.instant,
}) satisfies r.Reader<AttemptAnnouncementEvent>;

/** A proctor paused the attempt (ADR 016): its clock stands still at `deadline − pausedAt` until "resumed". */
export type AttemptPausedEvent = { serverTime: string; pausedAt: string; reason: string };
export const AttemptPausedEventSchema = r.object({
  serverTime: r.instant,
  pausedAt: r.instant,
  reason: r.string,
}) satisfies r.Reader<AttemptPausedEvent>;

/** A proctor resumed the attempt: its deadline moved by exactly the paused time. */
export type AttemptResumedEvent = { serverTime: string; deadline: string };
export const AttemptResumedEventSchema = r.object({
  serverTime: r.instant,
  deadline: r.instant,
}) satisfies r.Reader<AttemptResumedEvent>;

/** An admin reopened the submitted attempt (ADR 017): the page unfreezes with this deadline. */
export type AttemptReopenedEvent = { serverTime: string; deadline: string };
export const AttemptReopenedEventSchema = r.object({
  serverTime: r.instant,
  deadline: r.instant,
}) satisfies r.Reader<AttemptReopenedEvent>;
