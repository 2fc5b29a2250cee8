import type { CandidateAnnouncement } from "@/lib/shared/schemas/announcements";
import {
  AttemptAnnouncementEventSchema as PresenceAnnouncementSchema,
  AttemptDeadlineEventSchema as PresenceDeadlineSchema,
  AttemptPausedEventSchema as PresencePausedSchema,
  AttemptReadyEventSchema as PresenceReadySchema,
  AttemptResumedEventSchema as PresenceResumedSchema,
  AttemptReopenedEventSchema as PresenceReopenedSchema,
  AttemptSubmittedEventSchema as PresenceSubmittedSchema,
} from "@/lib/shared/schemas/attempt-events";

import type { AttemptPause } from "../offline/db";

/**
 * Events of the candidate's presence stream, `GET /api/attempts/{attemptId}/events?deviceId=…`
 * (docs/sync-protocol.md, "Proctor actions"): what the page needs to react at once to a proctor's action
 * instead of at its next heartbeat. Anything else on the stream is ignored; a malformed event is dropped.
 */
export { ATTEMPT_EVENTS as PRESENCE_EVENTS } from "@/lib/shared/schemas/attempt-events";

/** One event, as the engine acts on it. `pause` is told by ready, paused and resumed (null: running). */
export type PresenceEvent =
  | { kind: "deadline"; serverTime: string; deadline: string; pause?: AttemptPause | null }
  | { kind: "paused"; serverTime: string; pause: AttemptPause }
  | { kind: "submitted"; serverTime: string }
  /** The attempt is in progress: after an admin's reopening, or as `ready` says of any running attempt. */
  | { kind: "open"; serverTime: string }
  /** The stream (re)opened: announcements sent while it was closed are read back (step A2). */
  | { kind: "opened" }
  | { kind: "announcement"; announcement: CandidateAnnouncement };

/** Reads one stream event; null for anything the engine does not act on. `ready` tells every fact. */
export function readPresenceEvent(name: string, data: unknown): PresenceEvent[] | null {
  if (name === "ready") {
    const parsed = PresenceReadySchema.safeParse(data);
    if (!parsed.success) return null;
    const { serverTime, deadline, status, pausedAt, pauseReason } = parsed.data;
    const pause = pausedAt === undefined || pausedAt === null ? pausedAt : { pausedAt, reason: pauseReason ?? "" };
    const events: PresenceEvent[] = [
      { kind: "deadline", serverTime, deadline, ...(pause !== undefined ? { pause } : {}) },
    ];
    events.push(status === "submitted" ? { kind: "submitted", serverTime } : { kind: "open", serverTime });
    events.push({ kind: "opened" });
    return events;
  }
  if (name === "announcement") {
    const parsed = PresenceAnnouncementSchema.safeParse(data);
    return parsed.success ? [{ kind: "announcement", announcement: parsed.data }] : null;
  }
  if (name === "deadline") {
    const parsed = PresenceDeadlineSchema.safeParse(data);
    return parsed.success ? [{ kind: "deadline", ...parsed.data }] : null;
  }
  if (name === "paused") {
    const parsed = PresencePausedSchema.safeParse(data);
    if (!parsed.success) return null;
    const { serverTime, pausedAt, reason } = parsed.data;
    return [{ kind: "paused", serverTime, pause: { pausedAt, reason } }];
  }
  if (name === "resumed") {
    const parsed = PresenceResumedSchema.safeParse(data);
    return parsed.success ? [{ kind: "deadline", ...parsed.data, pause: null }] : null;
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
