import { describe, expect, it } from "vitest";

import { missedOverloadTargets, overloadPlan, type OverloadOptions } from "./overload";

const OPTIONS: OverloadOptions = {
  candidates: 500,
  capacity: null,
  capacityClients: 64,
  capacitySeconds: 15,
  rampSeconds: 20,
  leadSeconds: 10,
  burstSeconds: 60,
  burstFactor: 2,
  normalSeconds: 60,
  normalFactor: 0.5,
  submitWindowSeconds: 10,
  debounceMs: 0,
  workers: 2,
  poolMax: 10,
  isCompared: true,
  isTargetsChecked: false,
  isPublished: false,
  build: "never",
};

describe("overloadPlan", () => {
  it("offers the normal rate through the ramp and the lead, twice the capacity in the burst, then normal again", () => {
    const plan = overloadPlan(OPTIONS, 400);
    expect(plan).toMatchObject({
      rampMs: 20_000,
      burstFromMs: 30_000,
      burstToMs: 90_000,
      editUntilMs: 150_000,
      submitToMs: 160_000,
    });
    expect([0, 29_999, 30_000, 89_999, 90_000, 149_999].map((atMs) => plan.editsPerSecondAt(atMs))).toEqual([
      200, 200, 800, 800, 200, 200,
    ]);
  });
});

describe("missedOverloadTargets", () => {
  it("passes a recovery within 30 s, and fails a later one or none", () => {
    expect(missedOverloadTargets(0)).toEqual([]);
    expect(missedOverloadTargets(30_000)).toEqual([]);
    expect(missedOverloadTargets(35_000)).toEqual(["recovery 35 s > 30 s"]);
    expect(missedOverloadTargets(null)).toHaveLength(1);
  });
});
