import {
  AttemptDeadlineEventSchema as PresenceDeadlineSchema,
  AttemptReadyEventSchema as PresenceReadySchema,
  AttemptReopenedEventSchema as PresenceReopenedSchema,
  AttemptSubmittedEventSchema as PresenceSubmittedSchema,
} from "@/lib/shared/schemas/attempt-events";

/**
 * Events of the candidate's presence stream, `GET /api/attempts/{attemptId}/events?deviceId=…`
 * (docs/sync-protocol.md, "Proctor actions"): what the page needs to react at once to a proctor's action
 * instead of at its next heartbeat. Anything else on the stream is ignored; a malformed event is dropped.
 */
export { ATTEMPT_EVENTS as PRESENCE_EVENTS } from "@/lib/shared/schemas/attempt-events";

/** One event, as the engine acts on it. */
export type PresenceEvent =
  | { kind: "deadline"; serverTime: string; deadline: string }
  | { kind: "submitted"; serverTime: string }
  /** The attempt is in progress: after an admin's reopening, or as `ready` says of any running attempt. */
  | { kind: "open"; serverTime: string };

/** Reads one stream event; null for anything the engine does not act on. `ready` tells both facts. */
export function readPresenceEvent(name: string, data: unknown): PresenceEvent[] | null {
  if (name === "ready") {
    const parsed = PresenceReadySchema.safeParse(data);
    if (!parsed.success) return null;
    const { serverTime, deadline, status } = parsed.data;
    const events: PresenceEvent[] = [{ kind: "deadline", serverTime, deadline }];
    events.push(status === "submitted" ? { kind: "submitted", serverTime } : { kind: "open", serverTime });
    return events;
  }
  if (name === "deadline") {
    const parsed = PresenceDeadlineSchema.safeParse(data);
    return parsed.success ? [{ kind: "deadline", ...parsed.data }] : null;
  }
  if (name === "submitted") {
    const parsed = PresenceSubmittedSchema.safeParse(data);
    return parsed.success ? [{ kind: "submitted", serverTime: parsed.data.serverTime }] : null;
  }
  if (name === "reopened") {
    const parsed = PresenceReopenedSchema.safeParse(data);
    if (!parsed.success) return null;
    const { serverTime, deadline } = parsed.data;
    return [
      { kind: "deadline", serverTime, deadline },
      { kind: "open", serverTime },
    ];
  }
  return null;
}
