import "server-only";

import { LIVE_THRESHOLDS } from "@/lib/shared/proctor/live-status";

import { isForeignKeyViolation } from "../db/errors";
import { prepared, queryRows, sql } from "../db/sql";
import type { LiveHeartbeat } from "../heartbeats/live-heartbeat";

/**
 * Keeps a device's offline spans (`device_offline_spans`, the proctor's timeline) as its heartbeats arrive.
 * Called by recordHeartbeat before it writes the heartbeat, so the previous one is still readable:
 *
 * 1. The device says it is offline and was not before: open a span (cause "reported"). Heartbeats that
 *    keep saying "offline" leave it alone.
 * 2. The device says it is online and a span may be open (it was offline, its channel closed since its last
 *    heartbeat, or the server has no live copy to tell): close it.
 * 3. The device was silent for longer than the unreachable threshold and no span was open: record the
 *    silence as a closed span [last heartbeat, now] (cause "unreachable").
 *
 * The common heartbeat (online before and now, nothing in between) costs no Postgres statement and no Redis
 * call of its own (the caller read the presence field with the previous heartbeat).
 * Otherwise one statement does all three, so the open-span check and the writes see one snapshot, and the
 * partial unique index `device_offline_spans_one_open` (INSERT … ON CONFLICT DO NOTHING) keeps
 * two instances from opening two spans for one device.
 */
export async function trackOfflineSpans(options: {
  attemptId: string;
  deviceId: string;
  online: boolean;
  /** The device's live copy before this heartbeat; null when there is none or Redis is away. */
  previous: LiveHeartbeat | null;
  /**
   * When its channel last closed (the live hash's `presence:{deviceId}` field, device-presence.ts), read by the
   * caller with `previous` in one round trip; null when it has not closed or Redis is away.
   */
  disconnectedAt: string | null;
  now: number;
}): Promise<void> {
  const { attemptId, deviceId, online, previous, disconnectedAt, now } = options;
  const isGap = previous !== null && now - previous.receivedAt > LIVE_THRESHOLDS.unreachableAfterMs;
  if (previous && previous.online && online && !isGap) {
    if (disconnectedAt === null || Number(disconnectedAt) < previous.receivedAt) return;
  }
  const opensReported = !online && (previous === null || previous.online);
  const at = new Date(now);
  try {
    // Without a live copy the last heartbeat comes from the durable row, which the caller rewrites only after
    // this. Data-modifying CTEs run whether or not the final statement reads them.
    await queryRows(
      prepared(
        "track-offline-spans",
        sql`
      WITH last AS (
        SELECT COALESCE(${previous ? new Date(previous.receivedAt) : null}::timestamptz,
                        (SELECT received_at FROM device_heartbeats WHERE attempt_id = ${attemptId}::uuid AND device_id = ${deviceId})) AS at
      ),
      open_span AS (
        SELECT 1 FROM device_offline_spans WHERE attempt_id = ${attemptId}::uuid AND device_id = ${deviceId} AND ended_at IS NULL
      ),
      closed AS (
        UPDATE device_offline_spans SET ended_at = ${at}
        WHERE ${online}::boolean AND attempt_id = ${attemptId}::uuid AND device_id = ${deviceId} AND ended_at IS NULL
        RETURNING 1
      ),
      silence AS (
        INSERT INTO device_offline_spans (id, attempt_id, device_id, started_at, ended_at, cause)
        SELECT gen_random_uuid(), ${attemptId}::uuid, ${deviceId}, last.at, ${at}, 'unreachable' FROM last
        WHERE last.at < ${at}::timestamptz - make_interval(secs => ${LIVE_THRESHOLDS.unreachableAfterMs / 1000})
          AND NOT EXISTS (SELECT 1 FROM open_span)
        RETURNING 1
      )
      INSERT INTO device_offline_spans (id, attempt_id, device_id, started_at, cause)
      SELECT gen_random_uuid(), ${attemptId}::uuid, ${deviceId}, ${at}, 'reported'
      WHERE ${opensReported}::boolean
      ON CONFLICT (attempt_id, device_id) WHERE ended_at IS NULL DO NOTHING`,
      ),
    );
  } catch (error) {
    // The attempt was deleted meanwhile: the heartbeat's own write answers 404 for it.
    if (!isForeignKeyViolation(error)) throw error;
  }
}
