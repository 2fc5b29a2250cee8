import * as z from "zod/mini";

/**
 * Events of a candidate page's own stream, `GET /api/attempts/{attemptId}/events?deviceId=…`
 * (docs/sync-protocol.md, "Proctor dashboard" and "Proctor actions"). The server writes them with these
 * types; the page reads them with these schemas (`zod/mini`: the exam page ships them).
 */
export const ATTEMPT_EVENTS = ["ready", "deadline", "submitted"] as const;

const Instant = z.iso.datetime({ offset: true });

/** First event of every connection: the attempt's deadline and status now. */
export const AttemptReadyEventSchema = z.object({
  serverTime: Instant,
  deadline: Instant,
  status: z.enum(["in_progress", "submitted"]),
});
export type AttemptReadyEvent = z.infer<typeof AttemptReadyEventSchema>;

/** A proctor moved the deadline. */
export const AttemptDeadlineEventSchema = z.object({ serverTime: Instant, deadline: Instant });
export type AttemptDeadlineEvent = z.infer<typeof AttemptDeadlineEventSchema>;

/** The attempt was submitted elsewhere (another device, a proctor, the deadline). */
export const AttemptSubmittedEventSchema = z.object({ serverTime: Instant });
export type AttemptSubmittedEvent = z.infer<typeof AttemptSubmittedEventSchema>;
