import { describe, expect, it } from "vitest";

import type { LatencyWindow } from "../lib/load/windows";
import { freezePlan, missedFreezeTargets, type RedisFreezeOptions } from "./redis-freeze";

const OPTIONS: RedisFreezeOptions = {
  candidates: 500,
  rampSeconds: 10,
  warmupSeconds: 20,
  freezeSeconds: 20,
  afterSeconds: 20,
  submitWindowSeconds: 10,
  editEverySeconds: 10,
  workers: 2,
  poolMax: 10,
  isCompared: true,
  isTargetsChecked: false,
  isPublished: false,
  build: "never",
};

function phase(p99: number, ok = 100): LatencyWindow {
  return { fromMs: 0, toMs: 1, count: ok, ok, limited: 0, errors: 0, p50: p99 / 2, p99, max: p99 };
}

describe("freezePlan", () => {
  it("freezes after the arrivals and the warm-up, and has everyone submit after the answers that follow", () => {
    expect(freezePlan(OPTIONS)).toEqual({
      freezeFromMs: 30_000,
      freezeToMs: 50_000,
      editUntilMs: 70_000,
      submitToMs: 80_000,
      phases: { before: [10_000, 30_000], during: [30_000, 50_000], after: [50_000, 70_000] },
    });
  });
});

describe("missedFreezeTargets", () => {
  const ok = phase(40);

  it("passes an autosave p99 up to 1 s while Redis is frozen", () => {
    expect(missedFreezeTargets({ phases: { autosave: { before: ok, during: phase(1_000), after: ok } } })).toEqual([]);
  });

  it("fails a slower one, and a freeze during which no autosave was answered", () => {
    expect(missedFreezeTargets({ phases: { autosave: { before: ok, during: phase(1_250), after: ok } } })).toEqual([
      "autosave p99 while Redis was frozen 1250 ms > 1000 ms",
    ]);
    expect(
      missedFreezeTargets({ phases: { autosave: { before: ok, during: phase(NaN, 0), after: ok } } }),
    ).toHaveLength(1);
    expect(missedFreezeTargets({ phases: {} })).toHaveLength(1);
  });
});
