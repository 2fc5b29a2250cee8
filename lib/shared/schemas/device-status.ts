import { z } from "@/lib/shared/zod";

import { LIMITS } from "../limits";

/** A non-negative integer that fits the database's 32-bit columns. */
const CountSchema = z
  .number()
  .int("must be an integer")
  .min(0, "must be at least 0")
  .max(LIMITS.maxVersion, `must be at most ${LIMITS.maxVersion}`);

/**
 * A device's own view of its sync health (contract: "Heartbeat and live status"): the body of a heartbeat less
 * its `deviceId`, and the optional `device` of an autosave, which carries the same report (ADR 022).
 */
export const DeviceStatusSchema = z.object({
  /** The browser's own word (navigator.onLine and recent request success). */
  online: z.boolean(),
  /** Edits on the device not yet acknowledged by the server. */
  pending: CountSchema,
  /** Age of the oldest unacknowledged edit, in milliseconds; 0 when nothing is pending. */
  oldestPendingMs: CountSchema,
  /** The attempt `revision` of the last autosave the server acknowledged. */
  lastAckRevision: CountSchema,
  /** The device's Lamport clock: the highest answer version it has seen. */
  clock: CountSchema,
  /** Sync requests that failed in a row since the last success. */
  consecutiveFailures: CountSchema,
  /** Whether the browser granted persistent storage (navigator.storage.persisted()); null if unknown. */
  storagePersisted: z.boolean().nullable().optional(),
  /**
   * The deadline the device currently shows (ISO 8601, as the server sent it). A deadline at least as late
   * as a proctor's extension is the device's acknowledgement of it (docs/sync-protocol.md, "Proctor actions").
   */
  deadline: z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time" }).optional(),
});
export type DeviceStatus = z.infer<typeof DeviceStatusSchema>;
