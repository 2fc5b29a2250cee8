import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { Heartbeat, HeartbeatResponse } from "@/lib/shared/schemas/heartbeat";

import { sessionHashToCheck, settleSessionCheck, type CandidatePrincipal } from "../auth/sessions";
import { prepared, queryRows, sql } from "../db/sql";
import { fileStatement } from "../db/statement-files";
import { isForeignKeyViolation } from "../db/errors";
import { presenceField } from "../live/device-presence";
import { pendingExamChange, publishExamMessage, type ExamChangeKind } from "../live/exam-bus";
import { trackOfflineSpans } from "../live/track-offline-spans";
import { redisKeys } from "../redis/keys";
import { withRedis } from "../redis/client";
import { acknowledgeExtensions } from "../extensions/acknowledge-extensions";
import {
  LIVE_HEARTBEAT_TTL_SECONDS,
  parseLiveHeartbeat,
  shouldPersistHeartbeat,
  type LiveHeartbeat,
} from "./live-heartbeat";

type AttemptFacts = {
  id: string;
  examId: string;
  enrollmentId: string;
  status: "in_progress" | "submitted";
  deadline: Date;
  revision: number;
  pausedAt: Date | null;
  pauseReason: string | null;
};

/** Step 1: the caller's attempt, or null; a session found not valid any more is a 401 (nothing else read). */
async function readAttempt(attemptId: string, candidate: CandidatePrincipal): Promise<AttemptFacts | null> {
  const rows = await queryRows<{
    session: number;
    id: string | null;
    exam_id: string;
    enrollment_id: string;
    status: AttemptFacts["status"];
    deadline: Date;
    revision: number;
    paused_at: Date | null;
    pause_reason: string | null;
  }>(
    fileStatement("read-attempt-for-heartbeat", {
      attemptId,
      enrollmentId: candidate.enrollmentId,
      sessionHash: sessionHashToCheck(candidate),
    }),
  );
  const row = rows[0];
  settleSessionCheck(candidate, row !== undefined && row.session === 1);
  if (!row || row.id === null) return null;
  return {
    id: row.id,
    examId: row.exam_id,
    enrollmentId: row.enrollment_id,
    status: row.status,
    deadline: new Date(row.deadline),
    revision: row.revision,
    pausedAt: row.paused_at && new Date(row.paused_at),
    pauseReason: row.pause_reason,
  };
}

/**
 * Keeps the latest heartbeat of a device (contract: "Heartbeat and live status"):
 *
 * 1. Load the attempt scoped to the caller's enrollment: someone else's attempt is a 404; the caller's session
 *    checked in the same statement when the route did not read it (ADR 021: not valid any more is a 401). A submitted
 *    attempt still takes heartbeats (its page may be open) and answers with its status.
 * 2. Read the device's live copy from Redis, with the moment its channel last closed. Null means Redis is away.
 * 3. Keep the device's offline spans (trackOfflineSpans, which needs the previous heartbeat), then
 *    upsert the durable row in Postgres when Redis is away, or when shouldPersistHeartbeat says the
 *    change matters (or 30 s passed). Postgres first: a failure here fails the request before the
 *    live copy claims a write that did not happen.
 * 4. Write the live copy with the attempt's key expiry renewed, and tell the exam's live bus in the same MULTI:
 *    on every heartbeat, since the dashboard judges "unreachable" by lastHeartbeatAt (its feed coalesces).
 */
export async function recordHeartbeat(options: {
  attemptId: string;
  candidate: CandidatePrincipal;
  heartbeat: Heartbeat;
}): Promise<HeartbeatResponse> {
  const { heartbeat } = options;

  // 1. The answer's facts are stamped before they are read (a device orders facts by serverTime). A session this
  // process already knew is checked in the same statement (route.ts `foldsSessionCheck`, ADR 021).
  const readAt = new Date();
  const attempt = await readAttempt(options.attemptId, options.candidate);
  if (!attempt) throw new AppError("NOT_FOUND", "No such attempt.");

  // 2.–4.
  await keepDeviceStatus({
    attemptId: attempt.id,
    examId: options.candidate.examId,
    enrollmentId: options.candidate.enrollmentId,
    heartbeat,
  });

  return {
    serverTime: readAt.toISOString(),
    deadline: attempt.deadline.toISOString(),
    revision: attempt.revision,
    status: attempt.status,
    pausedAt: attempt.pausedAt?.toISOString() ?? null,
    pauseReason: attempt.pauseReason,
  };
}

/**
 * Steps 2–4 of `recordHeartbeat`, for a heartbeat or the status an autosave carried (ADR 022): the device's live
 * copy in Redis, its offline spans, its durable row when the change matters, an extension it acknowledges, and
 * the exam's live bus. The attempt is the caller's (already checked).
 */
export async function keepDeviceStatus(device: {
  attemptId: string;
  examId: string;
  enrollmentId: string;
  heartbeat: Heartbeat;
  /**
   * What the exam's live bus is told, with the live copy's write (one MULTI): "heartbeat" unless said; an autosave
   * says "saved" when it applied answers.
   */
  announce?: ExamChangeKind;
}): Promise<void> {
  const { heartbeat } = device;
  // 2.
  // With the moment its channel last closed (device-presence.ts), which step 3 needs: one round trip for both.
  const key = redisKeys.heartbeats(device.attemptId);
  const live = await withRedis(async (client) => {
    const [raw, disconnectedAt] = await client.hmget(key, heartbeat.deviceId, presenceField(heartbeat.deviceId));
    return { previous: parseLiveHeartbeat(raw), disconnectedAt: disconnectedAt ?? null };
  }, null);
  const previous = live?.previous ?? null;

  // 3.
  const receivedAt = Date.now();
  await trackOfflineSpans({
    attemptId: device.attemptId,
    deviceId: heartbeat.deviceId,
    online: heartbeat.online,
    previous,
    disconnectedAt: live?.disconnectedAt ?? null,
    now: receivedAt,
  });
  const isPersisted = live === null || shouldPersistHeartbeat(previous, heartbeat, receivedAt);
  if (isPersisted) {
    try {
      await upsertDeviceHeartbeat(device.attemptId, heartbeat, new Date(receivedAt));
    } catch (error) {
      // The attempt (or its exam) was deleted between the read above and this write.
      if (isForeignKeyViolation(error)) throw new AppError("NOT_FOUND", "No such attempt.");
      throw error;
    }
  }

  // A newly shown deadline may acknowledge a proctor's extension (before the live copy remembers it as seen).
  const { examId, enrollmentId } = device;
  if (heartbeat.deadline && heartbeat.deadline !== previous?.deadline)
    await acknowledgeExtensions({
      examId,
      enrollmentId,
      deviceId: heartbeat.deviceId,
      deadlineSeen: heartbeat.deadline,
    });

  // 4.
  const next: LiveHeartbeat = {
    ...heartbeat,
    storagePersisted: heartbeat.storagePersisted ?? null,
    receivedAt,
    persistedAt: isPersisted || !previous ? receivedAt : previous.persistedAt,
  };
  const change = pendingExamChange(examId, enrollmentId, device.announce ?? "heartbeat");
  const isWritten = await withRedis(async (client) => {
    await client
      .multi()
      .hset(key, heartbeat.deviceId, JSON.stringify(next))
      .expire(key, LIVE_HEARTBEAT_TTL_SECONDS)
      .publish(change.channel, change.payload)
      .exec();
    return true;
  }, false);
  // Redis away or failing: the bus reaches this process's listeners (publishExamMessage's own fallback).
  if (!isWritten) publishExamMessage(change.message);
}

/**
 * One statement, so two heartbeats of a new device racing each other both land (Prisma's upsert is
 * read-then-write and can fail on the second insert, prisma/prisma#3242). `first_seen_at` is written
 * only by the insert. Prepared once per connection, straight on the pool (lib/server/db/sql.ts).
 */
async function upsertDeviceHeartbeat(attemptId: string, heartbeat: Heartbeat, receivedAt: Date): Promise<void> {
  await queryRows(
    prepared(
      "upsert-device-heartbeat",
      sql`
    INSERT INTO device_heartbeats (attempt_id, device_id, online, pending, oldest_pending_ms, last_ack_revision, clock,
                                   consecutive_failures, storage_persisted, deadline_seen, first_seen_at, received_at)
    VALUES (${attemptId}::uuid, ${heartbeat.deviceId}, ${heartbeat.online}, ${heartbeat.pending}, ${heartbeat.oldestPendingMs},
            ${heartbeat.lastAckRevision}, ${heartbeat.clock}, ${heartbeat.consecutiveFailures}, ${heartbeat.storagePersisted ?? null}::boolean,
            ${heartbeat.deadline ?? null}::timestamptz, ${receivedAt}, ${receivedAt})
    ON CONFLICT (attempt_id, device_id) DO UPDATE SET
      online = EXCLUDED.online,
      pending = EXCLUDED.pending,
      oldest_pending_ms = EXCLUDED.oldest_pending_ms,
      last_ack_revision = EXCLUDED.last_ack_revision,
      clock = EXCLUDED.clock,
      consecutive_failures = EXCLUDED.consecutive_failures,
      storage_persisted = EXCLUDED.storage_persisted,
      deadline_seen = COALESCE(EXCLUDED.deadline_seen, device_heartbeats.deadline_seen),
      received_at = EXCLUDED.received_at`,
    ),
  );
}
