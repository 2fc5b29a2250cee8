import * as r from "./reader";

/**
 * Events of a candidate page's own stream, `GET /api/attempts/{attemptId}/events?deviceId=…`
 * (docs/sync-protocol.md, "Proctor dashboard" and "Proctor actions"). The server writes them with these
 * types; the page reads them with these readers (./reader.ts: the exam page ships them, zod it does not).
 */
export const ATTEMPT_EVENTS = ["ready", "deadline", "submitted", "reopened"] as const;

/** First event of every connection: the attempt's deadline and status now. */
export type AttemptReadyEvent = { serverTime: string; deadline: string; status: "in_progress" | "submitted" };
export const AttemptReadyEventSchema = r.object({
  serverTime: r.instant,
  deadline: r.instant,
  status: r.oneOf(["in_progress", "submitted"]),
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

/** An admin reopened the submitted attempt (ADR 017): the page unfreezes with this deadline. */
export type AttemptReopenedEvent = { serverTime: string; deadline: string };
export const AttemptReopenedEventSchema = r.object({
  serverTime: r.instant,
  deadline: r.instant,
}) satisfies r.Reader<AttemptReopenedEvent>;
