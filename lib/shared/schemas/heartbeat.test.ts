import { describe, expect, it } from "vitest";

import { HeartbeatSchema } from "./heartbeat";

const valid = {
  deviceId: "laptop_1",
  online: true,
  pending: 2,
  oldestPendingMs: 1500,
  lastAckRevision: 4,
  clock: 9,
  consecutiveFailures: 0,
  storagePersisted: false,
};

function failingPaths(input: unknown): string[] {
  const result = HeartbeatSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join("."));
}

describe("HeartbeatSchema", () => {
  it("accepts the contract's fields, with storagePersisted null or absent", () => {
    expect(HeartbeatSchema.parse(valid)).toEqual(valid);
    expect(HeartbeatSchema.parse({ ...valid, storagePersisted: null }).storagePersisted).toBeNull();
    const withoutStorage: Record<string, unknown> = { ...valid };
    delete withoutStorage.storagePersisted;
    expect(HeartbeatSchema.parse(withoutStorage).storagePersisted).toBeUndefined();
  });

  it("names every bad field by its path", () => {
    expect(failingPaths({ ...valid, deviceId: "has space" })).toEqual(["deviceId"]);
    expect(failingPaths({ ...valid, online: "yes" })).toEqual(["online"]);
    expect(failingPaths({ ...valid, pending: -1 })).toEqual(["pending"]);
    expect(failingPaths({ ...valid, oldestPendingMs: 1.5 })).toEqual(["oldestPendingMs"]);
    expect(failingPaths({ ...valid, clock: 2 ** 31 })).toEqual(["clock"]);
    expect(failingPaths({ ...valid, lastAckRevision: "4" })).toEqual(["lastAckRevision"]);
    expect(failingPaths({ ...valid, consecutiveFailures: null })).toEqual(["consecutiveFailures"]);
    expect(failingPaths({ ...valid, storagePersisted: "granted" })).toEqual(["storagePersisted"]);
    expect(failingPaths({ deviceId: "x" }).sort()).toEqual([
      "clock",
      "consecutiveFailures",
      "lastAckRevision",
      "oldestPendingMs",
      "online",
      "pending",
    ]);
  });

  it("takes the deadline the device shows as an optional ISO date-time, and refuses anything else by path", () => {
    expect(HeartbeatSchema.parse({ ...valid, deadline: "2026-12-01T09:00:00.000Z" }).deadline).toBe(
      "2026-12-01T09:00:00.000Z",
    );
    expect(HeartbeatSchema.parse(valid).deadline).toBeUndefined();
    expect(failingPaths({ ...valid, deadline: "tomorrow" })).toEqual(["deadline"]);
    expect(failingPaths({ ...valid, deadline: 1_800_000_000_000 })).toEqual(["deadline"]);
    expect(failingPaths({ ...valid, deadline: null })).toEqual(["deadline"]);
  });
});
