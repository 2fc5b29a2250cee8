import "server-only";

import { prepared, queryRows, sql } from "../db/sql";
import { LIVE_HEARTBEAT_TTL_SECONDS } from "../heartbeats/live-heartbeat";
import { redisKeys } from "../redis/keys";
import { withRedis } from "../redis/client";
import { publishExamChange } from "./exam-bus";

/**
 * Whether a candidate's device holds its live channel open (the candidate page's event stream,
 * `GET /api/attempts/{attemptId}/events`). A closed channel is the first sign of a device that left or lost
 * its network without being able to say so: the dashboard shows it offline at once instead of waiting 45 s
 * for its heartbeats to stop. The moment the channel closed lives in the attempt's live heartbeat hash in
 * Redis (field `presence:{deviceId}`, expiring with it: a device silent that long is unreachable anyway), or in
 * this process when Redis is away (single instance); the offline span it opens lives in Postgres.
 */

export function presenceField(deviceId: string): string {
  return `presence:${deviceId}`;
}

type LocalPresence = Map<string, Map<string, number>>;

const globalForPresence = globalThis as unknown as { holdfastPresence?: LocalPresence };

/** attemptId → deviceId → disconnectedAt, for when Redis is away. */
export function localPresence(): LocalPresence {
  return (globalForPresence.holdfastPresence ??= new Map());
}

type DeviceRef = { examId: string; enrollmentId: string; attemptId: string; deviceId: string };

/**
 * The device's channel opened: it is reachable, so its disconnectedAt is cleared and any open offline span
 * ends now (whatever opened it: a device that holds a stream open has a network).
 */
export async function markDeviceConnected(device: DeviceRef): Promise<void> {
  const devices = localPresence().get(device.attemptId);
  devices?.delete(device.deviceId);
  if (devices?.size === 0) localPresence().delete(device.attemptId);
  await withRedis((client) => client.hdel(redisKeys.heartbeats(device.attemptId), presenceField(device.deviceId)), 0);
  await queryRows(
    prepared(
      "end-offline-span",
      sql`
    UPDATE device_offline_spans SET ended_at = ${new Date()}
    WHERE attempt_id = ${device.attemptId}::uuid AND device_id = ${device.deviceId} AND ended_at IS NULL`,
    ),
  );
  publishExamChange(device.examId, device.enrollmentId, "presence");
}

/**
 * The device's channel closed: remember when, open an offline span (cause "disconnected") while the attempt is in
 * progress, unless one is already open — the partial unique index `device_offline_spans_one_open` decides, so two instances closing
 * channels of one device at once still make one span. `isKnownSubmitted`: the caller has seen the attempt submitted
 * (its channel sent the page "submitted" after the commit), so there is no span to open and Postgres is not asked:
 * a deadline storm closes thousands of finished pages in seconds.
 */
export async function markDeviceDisconnected(
  device: DeviceRef,
  at = Date.now(),
  isKnownSubmitted = false,
): Promise<void> {
  const isStoredInRedis = await withRedis(async (client) => {
    const key = redisKeys.heartbeats(device.attemptId);
    await client
      .multi()
      .hset(key, presenceField(device.deviceId), String(at))
      .expire(key, LIVE_HEARTBEAT_TTL_SECONDS)
      .exec();
    return true;
  }, false);
  if (!isStoredInRedis) {
    const devices = localPresence().get(device.attemptId) ?? new Map<string, number>();
    devices.set(device.deviceId, at);
    localPresence().set(device.attemptId, devices);
  }
  // FROM attempts: a stream that outlives its attempt (the exam was deleted) opens nothing, quietly; nor does one
  // that closes after the attempt was submitted — the candidate left a finished exam, which the proctor's timeline
  // must not show as going offline (and a deadline storm's thousands of closing pages write nothing here).
  if (!isKnownSubmitted)
    await queryRows(
      prepared(
        "open-disconnected-span",
        sql`
    INSERT INTO device_offline_spans (id, attempt_id, device_id, started_at, cause)
    SELECT gen_random_uuid(), a.id, ${device.deviceId}, ${new Date(at)}, 'disconnected'
    FROM attempts a WHERE a.id = ${device.attemptId}::uuid AND a.status = 'in_progress'
    ON CONFLICT (attempt_id, device_id) WHERE ended_at IS NULL DO NOTHING`,
      ),
    );
  publishExamChange(device.examId, device.enrollmentId, "presence");
}
