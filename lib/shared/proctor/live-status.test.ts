import { describe, expect, it } from "vitest";

import type { CandidateFacts, DeviceFacts } from "../schemas/proctor";
import { candidateFacts, deviceFacts, NOW } from "@/test-support/shared/candidate-facts";
import { countCandidates, deriveCandidateStatus, deriveDeviceStatus, LIVE_THRESHOLDS } from "./live-status";

// The shared fixtures, with the device name and deadline these cases read their numbers against.
const device = (overrides: Partial<DeviceFacts> = {}) => deviceFacts({ deviceId: "laptop", ...overrides });
const candidate = (overrides: Partial<CandidateFacts> = {}) =>
  candidateFacts({ deadline: NOW + 3_000_000, devices: [device()], ...overrides });

describe("a paused candidate (ADR 016)", () => {
  it("keeps its time left frozen at deadline − pausedAt however late it is read", () => {
    const paused = candidate({ pausedAt: NOW - 600_000, pauseReason: "Fire alarm" });
    expect(deriveCandidateStatus(paused, NOW).timeLeftMs).toBe(3_600_000);
    expect(deriveCandidateStatus(paused, NOW + 3_900_000).timeLeftMs).toBe(3_600_000);
    expect(deriveCandidateStatus(candidate(), NOW + 60_000).timeLeftMs).toBe(2_940_000);
  });
});

describe("deriveDeviceStatus", () => {
  it("is online while heartbeats come and the device says so", () => {
    expect(deriveDeviceStatus(device(), NOW)).toEqual({
      deviceId: "laptop",
      connection: "online",
      quietSince: null,
      pending: 0,
      oldestPendingMs: null,
      isFailing: false,
    });
  });

  it("is offline by the device's own word, quiet since its offline span began", () => {
    const status = deriveDeviceStatus(
      device({ online: false, offlineSince: NOW - 20_000, pending: 2, oldestPendingMs: 4_000 }),
      NOW,
    );
    expect(status).toMatchObject({ connection: "offline", quietSince: NOW - 20_000, pending: 2 });
    // The unsynced edit has aged since the heartbeat that reported it.
    expect(status.oldestPendingMs).toBe(9_000);
  });

  it("is offline when its live channel closed after its last heartbeat, not before", () => {
    expect(deriveDeviceStatus(device({ disconnectedAt: NOW - 1_000 }), NOW).connection).toBe("offline");
    expect(deriveDeviceStatus(device({ disconnectedAt: NOW - 60_000 }), NOW).connection).toBe("online");
  });

  it("is unreachable after 45 s without a heartbeat, whatever it last said", () => {
    const limit = LIVE_THRESHOLDS.unreachableAfterMs;
    expect(deriveDeviceStatus(device({ lastHeartbeatAt: NOW - limit }), NOW).connection).toBe("online");
    const status = deriveDeviceStatus(device({ lastHeartbeatAt: NOW - limit - 1 }), NOW);
    expect(status).toMatchObject({ connection: "unreachable", quietSince: NOW - limit - 1 });
  });

  it("an unreachable device's quiet time ignores a channel that closed before it was last heard (bug fixed)", () => {
    const status = deriveDeviceStatus(device({ lastHeartbeatAt: NOW - 50_000, disconnectedAt: NOW - 500_000 }), NOW);
    expect(status.quietSince).toBe(NOW - 50_000);
    // A channel that closed after the last heartbeat still counts.
    expect(
      deriveDeviceStatus(
        device({ lastHeartbeatAt: NOW - 50_000, disconnectedAt: NOW - 49_000, offlineSince: NOW - 49_000 }),
        NOW,
      ).quietSince,
    ).toBe(NOW - 50_000);
  });

  it("is failing only with unsynced work, enough failures in a row, and a device still talking", () => {
    const failures = LIVE_THRESHOLDS.failingAfterFailures;
    expect(deriveDeviceStatus(device({ pending: 1, consecutiveFailures: failures }), NOW).isFailing).toBe(true);
    expect(deriveDeviceStatus(device({ pending: 1, consecutiveFailures: failures - 1 }), NOW).isFailing).toBe(false);
    expect(deriveDeviceStatus(device({ pending: 0, consecutiveFailures: failures }), NOW).isFailing).toBe(false);
    expect(
      deriveDeviceStatus(device({ pending: 1, consecutiveFailures: failures, lastHeartbeatAt: NOW - 60_000 }), NOW)
        .isFailing,
    ).toBe(false);
  });
});

describe("deriveCandidateStatus", () => {
  it("a candidate who has not started has no connection, no sync and no time left", () => {
    const status = deriveCandidateStatus(
      candidate({ phase: "not_started", attemptId: null, startedAt: null, deadline: null, devices: [] }),
      NOW,
    );
    expect(status).toMatchObject({
      connection: "never",
      sync: "none",
      pending: 0,
      lastSeenAt: null,
      timeLeftMs: null,
      isAtRisk: false,
      devicesUsed: 0,
      isExtensionAcknowledged: null,
    });
  });

  it("takes the best connection over devices and sums their unsynced work", () => {
    const status = deriveCandidateStatus(
      candidate({
        devices: [
          device({ deviceId: "phone", pending: 1, oldestPendingMs: 1_000 }),
          device({
            deviceId: "laptop",
            online: false,
            offlineSince: NOW - 10_000,
            lastHeartbeatAt: NOW - 10_000,
            pending: 2,
            oldestPendingMs: 3_000,
          }),
        ],
      }),
      NOW,
    );
    expect(status).toMatchObject({
      connection: "online",
      sync: "pending",
      pending: 3,
      oldestPendingMs: 13_000,
      lastSeenAt: NOW - 5_000,
      devicesUsed: 2,
      timeLeftMs: 3_000_000,
    });
    expect(deriveCandidateStatus(candidate({ devices: [device({ online: false })] }), NOW).connection).toBe("offline");
    expect(
      deriveCandidateStatus(candidate({ devices: [device({ lastHeartbeatAt: NOW - 46_000 })] }), NOW).connection,
    ).toBe("unreachable");
  });

  it("is synced, pending or failing", () => {
    expect(deriveCandidateStatus(candidate(), NOW).sync).toBe("synced");
    expect(deriveCandidateStatus(candidate({ devices: [device({ pending: 2, oldestPendingMs: 10 })] }), NOW).sync).toBe(
      "pending",
    );
    expect(
      deriveCandidateStatus(candidate({ devices: [device({ pending: 2, consecutiveFailures: 5 })] }), NOW).sync,
    ).toBe("failing");
  });

  it("does not claim synced for a running attempt whose devices are all quiet: unknown, unless they reported work", () => {
    const offline = device({ online: false, offlineSince: NOW - 2_000 });
    expect(deriveCandidateStatus(candidate({ devices: [offline] }), NOW).sync).toBe("unknown");
    expect(deriveCandidateStatus(candidate({ devices: [device({ disconnectedAt: NOW - 1_000 })] }), NOW).sync).toBe(
      "unknown",
    );
    expect(deriveCandidateStatus(candidate({ devices: [device({ lastHeartbeatAt: NOW - 60_000 })] }), NOW).sync).toBe(
      "unknown",
    );
    expect(
      deriveCandidateStatus(candidate({ devices: [device({ online: false, pending: 2, oldestPendingMs: 10 })] }), NOW)
        .sync,
    ).toBe("pending");
    // One device still talking, or the attempt over: what they say stands.
    expect(deriveCandidateStatus(candidate({ devices: [offline, device({ deviceId: "phone" })] }), NOW).sync).toBe(
      "synced",
    );
    expect(deriveCandidateStatus(candidate({ phase: "submitted", devices: [offline] }), NOW).sync).toBe("synced");
  });

  it("is at risk with unsynced work on a device quiet for 30 s", () => {
    const quiet = (ms: number) =>
      candidate({
        devices: [
          device({
            online: false,
            offlineSince: NOW - ms,
            lastHeartbeatAt: NOW - ms,
            pending: 3,
            oldestPendingMs: 100,
          }),
        ],
      });
    expect(deriveCandidateStatus(quiet(LIVE_THRESHOLDS.atRiskQuietMs - 1_000), NOW).isAtRisk).toBe(false);
    const status = deriveCandidateStatus(quiet(LIVE_THRESHOLDS.atRiskQuietMs), NOW);
    expect(status.isAtRisk).toBe(true);
    expect(status.atRiskReason).toEqual({ code: "quietWithPending", pending: 3, connection: "offline", forMs: 30_000 });
  });

  it("is at risk when every device has been quiet for 30 s, even with nothing reported pending", () => {
    const status = deriveCandidateStatus(candidate({ devices: [device({ lastHeartbeatAt: NOW - 90_000 })] }), NOW);
    expect(status.atRiskReason).toEqual({ code: "noContact", forMs: 90_000 });
    // One device still online: not at risk.
    expect(
      deriveCandidateStatus(
        candidate({ devices: [device({ lastHeartbeatAt: NOW - 90_000 }), device({ deviceId: "phone" })] }),
        NOW,
      ).isAtRisk,
    ).toBe(false);
  });

  it("is at risk with unsynced work and little time left, or unsynced work that is old", () => {
    const pending = [device({ pending: 1, oldestPendingMs: 1_000 })];
    expect(deriveCandidateStatus(candidate({ devices: pending, deadline: NOW + 240_000 }), NOW).atRiskReason).toEqual({
      code: "pendingNearDeadline",
      pending: 1,
      timeLeftMs: 240_000,
    });
    expect(deriveCandidateStatus(candidate({ devices: pending, deadline: NOW + 600_000 }), NOW).isAtRisk).toBe(false);
    expect(
      deriveCandidateStatus(candidate({ devices: [device({ pending: 1, oldestPendingMs: 125_000 })] }), NOW)
        .atRiskReason,
    ).toEqual({ code: "pendingTooLong", forMs: 130_000 });
  });

  it("is never at risk once submitted, and has no time left then", () => {
    const facts = candidate({
      phase: "submitted",
      submittedAt: NOW - 1_000,
      submissionSource: "candidate",
      devices: [device({ lastHeartbeatAt: NOW - 600_000, pending: 4 })],
    });
    expect(deriveCandidateStatus(facts, NOW)).toMatchObject({ isAtRisk: false, atRiskReason: null, timeLeftMs: null });
  });

  it("says whether the last extension reached a device", () => {
    const extension = {
      extensionId: "0190b2c4-0000-7000-8000-000000000003",
      seconds: 600,
      reason: "fire alarm",
      by: "Proctor",
      at: NOW - 5_000,
      deadline: NOW + 3_600_000,
      acknowledgedAt: null,
      acknowledgedBy: null,
    };
    expect(deriveCandidateStatus(candidate({ lastExtension: extension }), NOW).isExtensionAcknowledged).toBe(false);
    expect(
      deriveCandidateStatus(
        candidate({ lastExtension: { ...extension, acknowledgedAt: NOW, acknowledgedBy: "laptop" } }),
        NOW,
      ).isExtensionAcknowledged,
    ).toBe(true);
  });
});

describe("countCandidates", () => {
  it("counts phases for everyone and connection and sync for running attempts only", () => {
    const counters = countCandidates(
      [
        candidate(),
        candidate({
          devices: [device({ online: false, pending: 1, offlineSince: NOW - 40_000, lastHeartbeatAt: NOW - 40_000 })],
        }),
        candidate({ devices: [device({ lastHeartbeatAt: NOW - 50_000 })] }),
        candidate({ devices: [device({ pending: 2, consecutiveFailures: 4 })] }),
        candidate({ phase: "not_started", attemptId: null, devices: [] }),
        candidate({ phase: "submitted", devices: [device({ online: false })] }),
        candidate({ phase: "auto_submitted", devices: [device({ lastHeartbeatAt: NOW - 900_000 })] }),
      ],
      NOW,
    );
    expect(counters).toEqual({
      total: 7,
      online: 2,
      offline: 1,
      unreachable: 1,
      pending: 2,
      failing: 1,
      atRisk: 2,
      notStarted: 1,
      inProgress: 4,
      submitted: 2,
    });
  });
});
