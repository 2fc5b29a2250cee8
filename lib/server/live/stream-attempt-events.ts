import "server-only";

import { z } from "zod";

import { AppError, validationError } from "@/lib/shared/errors";
import type {
  AttemptAnnouncementEvent,
  AttemptDeadlineEvent,
  AttemptPausedEvent,
  AttemptReadyEvent,
  AttemptResumedEvent,
  AttemptReopenedEvent,
  AttemptSubmittedEvent,
} from "@/lib/shared/schemas/attempt-events";
import { DeviceIdSchema } from "@/lib/shared/schemas/sync";

import { sentAnnouncementFor } from "../announcements/find-candidate-announcements";
import type { CandidatePrincipal } from "../auth/sessions";
import { prepared, queryRows, sql } from "../db/sql";
import { log } from "../log";
import { markDeviceConnected, markDeviceDisconnected } from "./device-presence";
import { subscribeAttemptSignals, whenLive, type AttemptSignalMessage } from "./exam-bus";
import { EXAM_FEED_TIMINGS, SSE_KEEP_ALIVE, sseEvent } from "./exam-feed";
import { openEventStream } from "./open-event-stream";

const QuerySchema = z.object({ deviceId: DeviceIdSchema });

type AttemptRow = {
  id: string;
  exam_id: string;
  enrollment_id: string;
  status: "in_progress" | "submitted";
  deadline: Date;
  paused_at: Date | null;
  pause_reason: string | null;
};

const globalForStreams = globalThis as unknown as { holdfastDeviceStreams?: Map<string, number> };

/** Open candidate streams per attempt and device on this instance: a second tab's stream closing is not the device leaving. */
function openStreams(): Map<string, number> {
  return (globalForStreams.holdfastDeviceStreams ??= new Map());
}

/**
 * `GET /api/attempts/{attemptId}/events?deviceId=…`: the candidate page's live channel (docs/sync-protocol.md,
 * "Proctor dashboard", presence stream).
 *
 * 0. The attempt's signals are listened to first, and the attempt read once that subscription is live (at most
 *    SUBSCRIPTION_WAIT_MS): a change committed after the read is heard, one committed before it is in `ready`.
 * 1. The attempt, scoped to the caller's enrollment (someone else's is a 404), then the device id (422).
 * 2. `ready { serverTime, deadline, status, pausedAt, pauseReason }`, and `submitted { serverTime }` at once if
 *    it already is.
 * 3. A bus signal "deadline" for this attempt sends `deadline { serverTime, deadline }` with the deadline read
 *    now (a proctor extended it); "submitted" sends `submitted { serverTime }` (a proctor or the deadline
 *    submitted it); "paused" and "resumed" send `paused { serverTime, pausedAt, reason }` or
 *    `resumed { serverTime, deadline }` from the row read now, only if the row still says so (a signal is a
 *    hint: a pause already resumed sends nothing stale). Times are ISO 8601, as in every other candidate
 *    response. An announcement hint reads the announcement back for this candidate's enrollment and sends
 *    `announcement { id, message, sentAt }` when it is theirs (a selection may leave them out). A page
 *    catches up on those it missed by reading the attempt when its stream (re)opens. "reopened" sends
 *    `reopened { serverTime, deadline }` with the deadline read now (an admin reopened it, ADR 017).
 * 4. While the stream is open the device is connected; when it closes (the page went away or lost its
 *    network), the device is marked disconnected and an offline span opens (device-presence.ts).
 */
export async function streamAttemptEvents(options: {
  attemptId: string;
  candidate: CandidatePrincipal;
  deviceId: string | null;
  signal: AbortSignal;
}): Promise<Response> {
  // 0. Listen first, read second. A pause (or an extension, a submission) is committed, then published: once the
  // subscription is live, one committed before the read below is in `ready`, and one committed after it is
  // heard here. Signals heard before the stream opens wait for `ready` (they are hints: each reads the row again).
  // The principal's exam is the attempt's (the read is scoped to its enrollment); a hung Redis is waited on for
  // SUBSCRIPTION_WAIT_MS at most (its publishes then fall back to this process, where this listener already is).
  const early: AttemptSignalMessage[] = [];
  let onSignal: ((message: AttemptSignalMessage) => void) | null = null;
  const subscription = subscribeAttemptSignals(options.candidate.examId, options.attemptId, (message) => {
    if (onSignal) onSignal(message);
    else early.push(message);
  });
  let isStreaming = false;
  try {
    await whenLive(subscription.live);
    const response = await openAttemptStream(
      options,
      (handle) => {
        onSignal = handle;
        for (const message of early.splice(0)) handle(message);
      },
      subscription,
    );
    isStreaming = true;
    return response;
  } finally {
    if (!isStreaming) subscription();
  }
}

/** Steps 1–4, with the subscription already live: `listen` is handed the signal handler once `ready` is sent. */
async function openAttemptStream(
  options: { attemptId: string; candidate: CandidatePrincipal; deviceId: string | null; signal: AbortSignal },
  listen: (handle: (message: AttemptSignalMessage) => void) => void,
  unsubscribe: () => void,
): Promise<Response> {
  // 1. Every serverTime on this stream is taken before the read whose facts it stamps: the device orders facts
  // by serverTime, and a stamp taken after the read could make a stale "not paused" win over a pause committed
  // in between and read elsewhere (the attempt view, another event).
  const readAt = new Date();
  const attempt = await readAttempt(options.attemptId, options.candidate.enrollmentId);
  if (!attempt) throw new AppError("NOT_FOUND", "No such attempt.");
  const query = QuerySchema.safeParse({ deviceId: options.deviceId ?? undefined });
  if (!query.success) throw validationError(query.error, "query");
  const device = {
    examId: attempt.exam_id,
    enrollmentId: attempt.enrollment_id,
    attemptId: attempt.id,
    deviceId: query.data.deviceId,
  };
  const streamKey = `${attempt.id}:${device.deviceId}`;

  let keepAlive: NodeJS.Timeout | undefined;
  // A stream that closes at once is marked disconnected after it was marked connected, never before.
  let connected: Promise<void> = Promise.resolve();
  // What this stream last told the page: submitted (in `ready` or as an event) until it sends "reopened".
  let isSubmitted = attempt.status === "submitted";
  return openEventStream({
    signal: options.signal,
    onOpen: (sink) => {
      // 2.
      sink.send(
        sseEvent("ready", {
          serverTime: readAt.toISOString(),
          deadline: attempt.deadline.toISOString(),
          status: attempt.status,
          pausedAt: attempt.paused_at?.toISOString() ?? null,
          pauseReason: attempt.pause_reason,
        } satisfies AttemptReadyEvent),
      );
      if (attempt.status === "submitted")
        sink.send(sseEvent("submitted", { serverTime: new Date().toISOString() } satisfies AttemptSubmittedEvent));

      // 3.
      listen((message) => {
        if (message.type === "announcement") {
          void sentAnnouncementFor({ ...device, announcementId: message.announcementId })
            .then((announcement) => {
              if (announcement) sink.send(sseEvent("announcement", announcement satisfies AttemptAnnouncementEvent));
            })
            .catch((error: unknown) =>
              log.warn("candidate stream: could not read an announcement", { attemptId: device.attemptId, error }),
            );
          return;
        }
        const signal = message.signal;
        if (signal === "submitted") {
          isSubmitted = true;
          sink.send(sseEvent("submitted", { serverTime: new Date().toISOString() } satisfies AttemptSubmittedEvent));
          return;
        }
        if (signal === "reopened") isSubmitted = false;
        const serverTime = new Date().toISOString();
        void readAttempt(device.attemptId, device.enrollmentId)
          .then((current) => {
            if (!current) return;
            if (signal === "paused") {
              if (current.paused_at === null || current.status !== "in_progress") return;
              sink.send(
                sseEvent("paused", {
                  serverTime,
                  pausedAt: current.paused_at.toISOString(),
                  reason: current.pause_reason ?? "",
                } satisfies AttemptPausedEvent),
              );
            } else if (signal === "resumed") {
              if (current.paused_at !== null) return;
              sink.send(
                sseEvent("resumed", {
                  serverTime,
                  deadline: current.deadline.toISOString(),
                } satisfies AttemptResumedEvent),
              );
            } else if (signal === "reopened") {
              sink.send(
                sseEvent("reopened", {
                  serverTime,
                  deadline: current.deadline.toISOString(),
                } satisfies AttemptReopenedEvent),
              );
            } else {
              sink.send(
                sseEvent("deadline", {
                  serverTime,
                  deadline: current.deadline.toISOString(),
                } satisfies AttemptDeadlineEvent),
              );
            }
          })
          .catch((error: unknown) =>
            log.warn("candidate stream: could not read the new deadline", { attemptId: device.attemptId, error }),
          );
      });
      keepAlive = setInterval(() => sink.send(SSE_KEEP_ALIVE), EXAM_FEED_TIMINGS.keepAliveMs);
      keepAlive.unref();

      // 4.
      openStreams().set(streamKey, (openStreams().get(streamKey) ?? 0) + 1);
      connected = markDeviceConnected(device).catch((error: unknown) =>
        log.warn("candidate stream: could not mark the device connected", { attemptId: device.attemptId, error }),
      );
    },
    onClose: () => {
      unsubscribe();
      clearInterval(keepAlive);
      const left = (openStreams().get(streamKey) ?? 1) - 1;
      if (left > 0) {
        openStreams().set(streamKey, left);
        return;
      }
      openStreams().delete(streamKey);
      void connected
        .then(() => markDeviceDisconnected(device, Date.now(), isSubmitted))
        .catch((error: unknown) =>
          log.warn("candidate stream: could not mark the device disconnected", { attemptId: device.attemptId, error }),
        );
    },
  });
}

async function readAttempt(attemptId: string, enrollmentId: string): Promise<AttemptRow | null> {
  const rows = await queryRows<AttemptRow>(
    prepared(
      "stream-attempt",
      sql`
    SELECT id::text AS id, exam_id::text AS exam_id, enrollment_id::text AS enrollment_id, status::text AS status, deadline,
           paused_at, pause_reason
    FROM attempts WHERE id = ${attemptId}::uuid AND enrollment_id = ${enrollmentId}::uuid`,
    ),
  );
  return rows[0] ?? null;
}
