import type { CandidateFacts, DeviceFacts } from "@/lib/shared/schemas/proctor";

// Facts the way the server sends them, for the live-status and dashboard unit tests: a running, online, synced
// candidate unless the overrides say otherwise. Test-only (imported by *.test.ts files).

export const NOW = Date.parse("2026-12-01T09:30:00Z");

export function deviceFacts(overrides: Partial<DeviceFacts> = {}): DeviceFacts {
  return {
    deviceId: "device-a",
    online: true,
    pending: 0,
    oldestPendingMs: 0,
    consecutiveFailures: 0,
    lastAckRevision: 3,
    storagePersisted: true,
    firstSeenAt: NOW - 20 * 60_000,
    lastHeartbeatAt: NOW - 5_000,
    disconnectedAt: null,
    offlineSince: null,
    deadlineSeen: null,
    ...overrides,
  };
}

export function candidateFacts(overrides: Partial<CandidateFacts> = {}): CandidateFacts {
  return {
    enrollmentId: crypto.randomUUID(),
    attemptId: crypto.randomUUID(),
    name: "Ada Lovelace",
    email: "ada@example.org",
    phase: "in_progress",
    startedAt: NOW - 20 * 60_000,
    deadline: NOW + 40 * 60_000,
    pausedAt: null,
    pauseReason: null,
    graceSeconds: 60,
    extraSeconds: 0,
    revision: 3,
    answered: 3,
    total: 5,
    lastSaveAt: NOW - 10_000,
    submittedAt: null,
    submissionSource: null,
    digestMismatch: false,
    lateAnswers: 0,
    devices: [deviceFacts()],
    lastExtension: null,
    observedAt: NOW,
    ...overrides,
  };
}
