import type { CandidateFacts, DeviceFacts, LiveCandidate, StatusCounters } from "../schemas/proctor";

/**
 * The live status a proctor reads, derived from a candidate's facts at a moment `now` (server clock, epoch
 * ms). One pure function, used by the server for the snapshot's counters and the metrics, and by the
 * dashboard every second, so a device going quiet turns unreachable and at risk without any message.
 * The thresholds are the contract's (docs/sync-protocol.md, "Proctor dashboard").
 */
export const LIVE_THRESHOLDS = {
  /** No heartbeat for this long: the device is unreachable (contract: 45 s; heartbeats come every 15 s). */
  unreachableAfterMs: 45_000,
  /**
   * A running attempt whose devices have all been quiet (offline or unreachable) this long is at risk: what
   * the candidate typed since is only on the device. With unsynced work reported, the reason says how much.
   */
  atRiskQuietMs: 30_000,
  /** Unsynced work this old puts the candidate at risk even while the device still talks to us. */
  atRiskPendingAgeMs: 120_000,
  /** Unsynced work with this little time left puts the candidate at risk. */
  atRiskDeadlineMs: 5 * 60_000,
  /** This many failed sync requests in a row is "failing", not just "pending". */
  failingAfterFailures: 3,
} as const;

export type Connection = "online" | "offline" | "unreachable" | "never";
/**
 * `unknown`: a running attempt whose devices are all quiet and last reported nothing pending — the server
 * cannot know what was typed since, so it does not claim "synced".
 */
export type SyncHealth = "synced" | "pending" | "failing" | "unknown" | "none";

export type DeviceStatus = {
  deviceId: string;
  connection: Exclude<Connection, "never">;
  /** Since when the device has been quiet (offline or unreachable); null while online. */
  quietSince: number | null;
  pending: number;
  /** Age now of the device's oldest unsynced edit, as far as the server can tell. */
  oldestPendingMs: number | null;
  isFailing: boolean;
};

export type CandidateStatus = {
  connection: Connection;
  sync: SyncHealth;
  /** Unsynced edits over all devices, as last reported. */
  pending: number;
  oldestPendingMs: number | null;
  /** When the candidate was last heard from (any device). */
  lastSeenAt: number | null;
  /** Until the server deadline (frozen while paused); null before start and after submission. */
  timeLeftMs: number | null;
  isAtRisk: boolean;
  /** Why, as facts the dashboard puts in the reader's language; null when not at risk. */
  atRiskReason: AtRiskReason | null;
  devicesUsed: number;
  devices: DeviceStatus[];
  /** The last extension reached a device (true), not yet (false), or there is none (null). */
  isExtensionAcknowledged: boolean | null;
};

/**
 * Why a candidate is at risk, by code with its numbers (durations in ms), so each reader's page words it
 * in its own language (lib/shared/proctor/describe.ts). The first that applies wins, in this order:
 * - `quietWithPending`: a device with unsynced edits has been offline or unreachable for `forMs`;
 * - `noContact`: every device has been quiet for `forMs` (anything typed since is only on the device);
 * - `pendingNearDeadline`: `pending` unsynced edits with `timeLeftMs` until the deadline;
 * - `pendingTooLong`: the oldest unsynced edit has waited `forMs`.
 */
export type AtRiskReason =
  | { code: "quietWithPending"; pending: number; connection: "offline" | "unreachable"; forMs: number }
  | { code: "noContact"; forMs: number }
  | { code: "pendingNearDeadline"; pending: number; timeLeftMs: number }
  | { code: "pendingTooLong"; forMs: number };

export function deriveDeviceStatus(device: DeviceFacts, now: number): DeviceStatus {
  const silentFor = now - device.lastHeartbeatAt;
  const isDisconnected = device.disconnectedAt !== null && device.disconnectedAt >= device.lastHeartbeatAt;
  let connection: DeviceStatus["connection"];
  let quietSince: number | null;
  if (silentFor > LIVE_THRESHOLDS.unreachableAfterMs) {
    connection = "unreachable";
    // A disconnectedAt older than the last heartbeat is a channel that closed before the device was heard again.
    quietSince = Math.min(
      device.offlineSince ?? Infinity,
      isDisconnected ? device.disconnectedAt! : Infinity,
      device.lastHeartbeatAt,
    );
  } else if (isDisconnected || !device.online) {
    connection = "offline";
    quietSince = Math.min(
      device.offlineSince ?? Infinity,
      isDisconnected ? device.disconnectedAt! : Infinity,
      device.lastHeartbeatAt,
    );
  } else {
    connection = "online";
    quietSince = null;
  }
  const pending = device.pending;
  return {
    deviceId: device.deviceId,
    connection,
    quietSince,
    pending,
    oldestPendingMs: pending > 0 ? device.oldestPendingMs + Math.max(0, silentFor) : null,
    isFailing:
      pending > 0 && connection !== "unreachable" && device.consecutiveFailures >= LIVE_THRESHOLDS.failingAfterFailures,
  };
}

export function deriveCandidateStatus(facts: CandidateFacts, now: number): CandidateStatus {
  const devices = facts.devices.map((device) => deriveDeviceStatus(device, now));
  const isRunning = facts.phase === "in_progress";

  let connection: Connection = "never";
  if (devices.some((device) => device.connection === "online")) connection = "online";
  else if (devices.some((device) => device.connection === "offline")) connection = "offline";
  else if (devices.length > 0) connection = "unreachable";

  const pending = devices.reduce((sum, device) => sum + device.pending, 0);
  const ages = devices.flatMap((device) => (device.oldestPendingMs === null ? [] : [device.oldestPendingMs]));
  const oldestPendingMs = ages.length > 0 ? Math.max(...ages) : null;

  let sync: SyncHealth = "none";
  if (facts.phase !== "not_started") {
    if (devices.some((device) => device.isFailing)) sync = "failing";
    else if (pending > 0) sync = "pending";
    else if (isRunning && (connection === "offline" || connection === "unreachable")) sync = "unknown";
    else sync = "synced";
  }

  // A paused attempt's clock stands still at deadline − pausedAt (ADR 016).
  const timeLeftMs = isRunning && facts.deadline !== null ? facts.deadline - (facts.pausedAt ?? now) : null;
  const atRiskReason = isRunning ? riskReason(devices, now, timeLeftMs) : null;
  const lastSeen = facts.devices.map((device) => device.lastHeartbeatAt);

  return {
    connection,
    sync,
    pending,
    oldestPendingMs,
    lastSeenAt: lastSeen.length > 0 ? Math.max(...lastSeen) : null,
    timeLeftMs,
    isAtRisk: atRiskReason !== null,
    atRiskReason,
    devicesUsed: facts.devices.length,
    devices,
    isExtensionAcknowledged: facts.lastExtension ? facts.lastExtension.acknowledgedAt !== null : null,
  };
}

function riskReason(devices: DeviceStatus[], now: number, timeLeftMs: number | null): AtRiskReason | null {
  for (const device of devices) {
    if (device.pending === 0 || device.quietSince === null || device.connection === "online") continue;
    const quietFor = now - device.quietSince;
    if (quietFor >= LIVE_THRESHOLDS.atRiskQuietMs) {
      return { code: "quietWithPending", pending: device.pending, connection: device.connection, forMs: quietFor };
    }
  }
  const quietSince = devices.map((device) => device.quietSince);
  if (quietSince.length > 0 && quietSince.every((since) => since !== null)) {
    const quietFor = now - Math.max(...(quietSince as number[]));
    if (quietFor >= LIVE_THRESHOLDS.atRiskQuietMs) return { code: "noContact", forMs: quietFor };
  }
  const pending = devices.reduce((sum, device) => sum + device.pending, 0);
  if (pending === 0) return null;
  if (timeLeftMs !== null && timeLeftMs <= LIVE_THRESHOLDS.atRiskDeadlineMs) {
    return { code: "pendingNearDeadline", pending, timeLeftMs: Math.max(0, timeLeftMs) };
  }
  const oldest = Math.max(...devices.map((device) => device.oldestPendingMs ?? 0));
  if (oldest >= LIVE_THRESHOLDS.atRiskPendingAgeMs) return { code: "pendingTooLong", forMs: oldest };
  return null;
}

export function emptyCounters(): StatusCounters {
  return {
    total: 0,
    online: 0,
    offline: 0,
    unreachable: 0,
    pending: 0,
    failing: 0,
    atRisk: 0,
    notStarted: 0,
    inProgress: 0,
    submitted: 0,
  };
}

/** Adds one candidate to the dashboard's counters (connection counts only candidates who have started). */
export function countCandidate(counters: StatusCounters, facts: CandidateFacts, status: CandidateStatus): void {
  counters.total += 1;
  if (facts.phase === "not_started") counters.notStarted += 1;
  else if (facts.phase === "in_progress") counters.inProgress += 1;
  else counters.submitted += 1;
  if (facts.phase === "in_progress") {
    if (status.connection === "online") counters.online += 1;
    else if (status.connection === "offline") counters.offline += 1;
    else if (status.connection === "unreachable") counters.unreachable += 1;
    if (status.sync === "pending") counters.pending += 1;
    if (status.sync === "failing") {
      counters.failing += 1;
      counters.pending += 1;
    }
  }
  if (status.isAtRisk) counters.atRisk += 1;
}

export function countCandidates(candidates: readonly CandidateFacts[], now: number): StatusCounters {
  return liveCandidates(candidates, now).counters;
}

/** The candidates with their status at `now`, and the counters of the same statuses: one derivation each. */
export function liveCandidates(
  candidates: readonly CandidateFacts[],
  now: number,
): { candidates: LiveCandidate[]; counters: StatusCounters } {
  const counters = emptyCounters();
  const live = candidates.map((facts) => {
    const status = deriveCandidateStatus(facts, now);
    countCandidate(counters, facts, status);
    return { ...facts, status };
  });
  return { candidates: live, counters };
}
