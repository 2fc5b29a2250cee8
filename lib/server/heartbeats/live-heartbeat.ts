import "server-only";

import { z } from "zod";

import { HeartbeatSchema, type Heartbeat } from "@/lib/shared/schemas/heartbeat";

/** How long the live copy of an attempt's heartbeats lives in Redis after its last heartbeat. */
export const LIVE_HEARTBEAT_TTL_SECONDS = 120;

/** Without a material change, a device's Postgres row is rewritten at most this often. */
export const HEARTBEAT_PERSIST_INTERVAL_MS = 30_000;

/**
 * The live copy of one device's latest heartbeat, as JSON in the attempt's Redis hash
 * (`redisKeys.heartbeats(attemptId)`, field = device id). Times are epoch milliseconds by the server's
 * clock: `receivedAt` when it arrived, `persistedAt` when its Postgres row was last written.
 * The hash expires LIVE_HEARTBEAT_TTL_SECONDS after the attempt's last heartbeat from any device;
 * a reader judges a single device's freshness by its `receivedAt`.
 */
export const LiveHeartbeatSchema = HeartbeatSchema.extend({
  storagePersisted: z.boolean().nullable(),
  receivedAt: z.number().int(),
  persistedAt: z.number().int(),
});
export type LiveHeartbeat = z.infer<typeof LiveHeartbeatSchema>;

/** The stored live copy, or null when there is none or it does not parse. */
export function parseLiveHeartbeat(raw: string | null | undefined): LiveHeartbeat | null {
  if (!raw) return null;
  try {
    const parsed = LiveHeartbeatSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Whether this heartbeat must be written to Postgres now. Postgres hears of every change a proctor
 * acts on — a device seen for the first time (or again after its live copy expired), going on- or
 * offline, unsynced work appearing or clearing, failures starting or stopping, a new deadline shown — and otherwise at most
 * every HEARTBEAT_PERSIST_INTERVAL_MS per device, which keeps thousands of devices beating every 15 s
 * off the database.
 */
export function shouldPersistHeartbeat(previous: LiveHeartbeat | null, next: Heartbeat, now: number): boolean {
  if (!previous) return true;
  if (previous.online !== next.online) return true;
  if ((previous.pending === 0) !== (next.pending === 0)) return true;
  if ((previous.consecutiveFailures === 0) !== (next.consecutiveFailures === 0)) return true;
  // A newly shown deadline is how a proctor's extension is acknowledged: the dashboard reads it from Postgres too.
  if (next.deadline !== undefined && previous.deadline !== next.deadline) return true;
  return now - previous.persistedAt >= HEARTBEAT_PERSIST_INTERVAL_MS;
}
