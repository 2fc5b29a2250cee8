import { z } from "@/lib/shared/zod";

import { LIMITS } from "../limits";
import type { AttemptStatus } from "./attempts";
import { DeviceIdSchema } from "./sync";

/** A non-negative integer that fits the database's 32-bit columns. */
const CountSchema = z
  .number()
  .int("must be an integer")
  .min(0, "must be at least 0")
  .max(LIMITS.maxVersion, `must be at most ${LIMITS.maxVersion}`);

/**
 * `POST /api/attempts/{attemptId}/heartbeat` request body: the device's own view of its sync health
 * (contract: "Heartbeat and live status"), sent every ~15 s and at once on a change of state.
 */
export const HeartbeatSchema = z.object({
  deviceId: DeviceIdSchema,
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
export type Heartbeat = z.infer<typeof HeartbeatSchema>;

/** 200 body of a heartbeat: the attempt's server-side time facts, so the client corrects its clock. */
export type HeartbeatResponse = {
  serverTime: string;
  deadline: string;
  revision: number;
  status: AttemptStatus;
  /**
   * The pause, as the attempt view tells it (ADR 016): so a device whose event stream missed a "paused" or
   * "resumed" learns it within one heartbeat. Optional for a client reading an older server.
   */
  pausedAt?: string | null;
  pauseReason?: string | null;
};
