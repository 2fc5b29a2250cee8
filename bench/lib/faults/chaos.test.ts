import { describe, expect, it } from "vitest";

import type { AppCluster } from "../servers/app-cluster";
import { cycledChaosPlan, defaultChaosPlan, runChaos, type ChaosAction } from "./chaos";
import type { PrivateRedis } from "./private-redis";

describe("defaultChaosPlan", () => {
  it.each([20_000, 60_000, 600_000])("undoes every fault before the end of a %i ms run", (durationMs) => {
    const plan = defaultChaosPlan(durationMs, 3);
    expect(plan.map((step) => step.atMs)).toEqual([...plan.map((step) => step.atMs)].sort((a, b) => a - b));
    expect(plan.every((step) => step.atMs >= 0 && step.atMs < durationMs)).toBe(true);
    const kinds = plan.map((step) => step.action.kind);
    for (const kind of ["kill-app", "restart-app", "pause-redis", "resume-redis", "restart-postgres", "set-faults"])
      expect(kinds).toContain(kind);

    const down = new Set<number>();
    let isRedisPaused = false;
    let faults: ChaosAction | undefined;
    for (const { action } of plan) {
      if (action.kind === "kill-app") down.add(action.index);
      if (action.kind === "restart-app") down.delete(action.index);
      if (action.kind === "pause-redis") isRedisPaused = true;
      if (action.kind === "resume-redis") isRedisPaused = false;
      if (action.kind === "set-faults") faults = action;
    }
    expect(down.size).toBe(0);
    expect(isRedisPaused).toBe(false);
    expect(faults).toEqual({
      kind: "set-faults",
      faults: { dropResponseRate: 0, resetRate: 0, latencyMs: { min: 0, max: 0 } },
    });
  });

  it("kills two different instances when there are several, the only one otherwise", () => {
    const killed = (instances: number): number[] =>
      defaultChaosPlan(60_000, instances).flatMap(({ action }) => (action.kind === "kill-app" ? [action.index] : []));
    expect(killed(3)).toEqual([0, 1]);
    expect(killed(1)).toEqual([0, 0]);
  });
});

describe("cycledChaosPlan", () => {
  it("is the default plan when the cycle is the whole run", () => {
    expect(cycledChaosPlan(60_000, 60_000, 3)).toEqual(defaultChaosPlan(60_000, 3));
  });

  it("repeats the plan in whole cycles, each undone before the next begins, turning through the instances", () => {
    const plan = cycledChaosPlan(3_000_000, 290_000, 3);
    const cycles = 10; // 3,000 s in whole cycles of about 290 s: ten of 300 s
    expect(plan).toHaveLength(cycles * defaultChaosPlan(300_000, 3).length);
    expect(plan.map((step) => step.atMs)).toEqual([...plan.map((step) => step.atMs)].sort((a, b) => a - b));
    expect(plan.every((step) => step.atMs >= 0 && step.atMs < 3_000_000)).toBe(true);
    for (let cycle = 0; cycle < cycles; cycle += 1) {
      const inCycle = plan.filter((step) => step.atMs >= cycle * 300_000 && step.atMs < (cycle + 1) * 300_000);
      expect(inCycle.filter((step) => step.action.kind === "restart-postgres")).toHaveLength(1);
      const down = new Set<number>();
      for (const { action } of inCycle) {
        if (action.kind === "kill-app") down.add(action.index);
        if (action.kind === "restart-app") down.delete(action.index);
      }
      expect(down.size).toBe(0);
      expect(inCycle.at(-1)?.action).toEqual({
        kind: "set-faults",
        faults: { dropResponseRate: 0, resetRate: 0, latencyMs: { min: 0, max: 0 } },
      });
    }
    const killed = new Set(plan.flatMap(({ action }) => (action.kind === "kill-app" ? [action.index] : [])));
    expect([...killed].sort()).toEqual([0, 1, 2]);
  });

  it("runs at least one cycle when the run is shorter than a cycle", () => {
    expect(cycledChaosPlan(30_000, 600_000, 1)).toEqual(defaultChaosPlan(30_000, 1));
  });
});

describe("runChaos", () => {
  it("runs steps in time order, reports failures as events and goes on", async () => {
    const calls: string[] = [];
    const cluster = {
      kill9: async (index: number) => {
        calls.push(`kill ${index}`);
      },
      restart: async () => {
        throw new Error("did not come back");
      },
    } as unknown as AppCluster;
    const redis = {
      pause: () => calls.push("pause"),
      resume: () => calls.push("resume"),
      isPaused: false,
    } as unknown as PrivateRedis;
    const events = await runChaos({
      plan: [
        { atMs: 30, action: { kind: "restart-app", index: 0 } },
        { atMs: 0, action: { kind: "kill-app", index: 0 } },
        { atMs: 40, action: { kind: "pause-redis" } },
        { atMs: 50, action: { kind: "restart-postgres", mode: "immediate" } },
      ],
      cluster,
      redis,
      signal: new AbortController().signal,
    });
    expect(calls).toEqual(["kill 0", "pause"]);
    expect(events.map((event) => [event.action.kind, event.ok, event.error])).toEqual([
      ["kill-app", true, undefined],
      ["restart-app", false, "did not come back"],
      ["pause-redis", true, undefined],
      ["restart-postgres", false, "this run has no private postgres"],
    ]);
    expect(events[1]?.atMs).toBeGreaterThanOrEqual(29);
  });

  it("stops at an abort and resumes a Redis it left paused", async () => {
    const calls: string[] = [];
    let isPaused = false;
    const redis = {
      pause: () => {
        isPaused = true;
        calls.push("pause");
      },
      resume: () => {
        isPaused = false;
        calls.push("resume");
      },
      get isPaused() {
        return isPaused;
      },
    } as unknown as PrivateRedis;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const events = await runChaos({
      plan: [
        { atMs: 0, action: { kind: "pause-redis" } },
        { atMs: 5_000, action: { kind: "resume-redis" } },
      ],
      redis,
      signal: controller.signal,
    });
    expect(events).toHaveLength(1);
    expect(calls).toEqual(["pause", "resume"]);
  });
});
