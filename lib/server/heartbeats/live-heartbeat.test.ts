import { describe, expect, it } from "vitest";

import type { Heartbeat } from "@/lib/shared/schemas/heartbeat";

import {
  HEARTBEAT_PERSIST_INTERVAL_MS,
  parseLiveHeartbeat,
  shouldPersistHeartbeat,
  type LiveHeartbeat,
} from "./live-heartbeat";

const beat: Heartbeat = {
  deviceId: "laptop",
  online: true,
  pending: 0,
  oldestPendingMs: 0,
  lastAckRevision: 3,
  clock: 7,
  consecutiveFailures: 0,
  storagePersisted: true,
};
const now = 1_800_000_000_000;
const stored: LiveHeartbeat = { ...beat, storagePersisted: true, receivedAt: now - 1_000, persistedAt: now - 1_000 };

describe("shouldPersistHeartbeat", () => {
  it("writes a device seen for the first time", () => {
    expect(shouldPersistHeartbeat(null, beat, now)).toBe(true);
  });

  it("skips an unchanged heartbeat inside the interval, and writes it once the interval passed", () => {
    expect(shouldPersistHeartbeat(stored, { ...beat, clock: 9, lastAckRevision: 4 }, now)).toBe(false);
    expect(shouldPersistHeartbeat({ ...stored, persistedAt: now - HEARTBEAT_PERSIST_INTERVAL_MS }, beat, now)).toBe(
      true,
    );
  });

  it("writes at once what a proctor acts on: online flag, pending work appearing or clearing, failures starting or stopping", () => {
    expect(shouldPersistHeartbeat(stored, { ...beat, online: false }, now)).toBe(true);
    expect(shouldPersistHeartbeat(stored, { ...beat, pending: 2, oldestPendingMs: 500 }, now)).toBe(true);
    expect(shouldPersistHeartbeat({ ...stored, pending: 2 }, beat, now)).toBe(true);
    expect(shouldPersistHeartbeat({ ...stored, pending: 2 }, { ...beat, pending: 5 }, now)).toBe(false);
    expect(shouldPersistHeartbeat(stored, { ...beat, consecutiveFailures: 1 }, now)).toBe(true);
    expect(shouldPersistHeartbeat({ ...stored, consecutiveFailures: 3 }, beat, now)).toBe(true);
  });
});

describe("shouldPersistHeartbeat and the deadline a device shows", () => {
  it("writes a newly shown deadline at once (it acknowledges an extension), and not the same one again", () => {
    const showing = { ...stored, deadline: "2026-12-01T09:00:00.000Z" };
    expect(shouldPersistHeartbeat(stored, { ...beat, deadline: "2026-12-01T09:00:00.000Z" }, now)).toBe(true);
    expect(shouldPersistHeartbeat(showing, { ...beat, deadline: "2026-12-01T09:10:00.000Z" }, now)).toBe(true);
    expect(shouldPersistHeartbeat(showing, { ...beat, deadline: "2026-12-01T09:00:00.000Z" }, now)).toBe(false);
    // An older client that does not send it changes nothing.
    expect(shouldPersistHeartbeat(showing, beat, now)).toBe(false);
  });
});

describe("parseLiveHeartbeat", () => {
  it("reads what was stored and treats anything else as absent", () => {
    expect(parseLiveHeartbeat(JSON.stringify(stored))).toEqual(stored);
    expect(parseLiveHeartbeat(null)).toBeNull();
    expect(parseLiveHeartbeat("not json")).toBeNull();
    expect(parseLiveHeartbeat(JSON.stringify({ ...stored, persistedAt: "yesterday" }))).toBeNull();
  });
});
