import { describe, expect, it } from "vitest";

import { restartDelayMs, SEMI_SPACE_MB, workerCount, workerEnvironment, workerNodeArgs } from "./workers.mjs";

describe("workerCount", () => {
  it("runs one worker per core by default when Redis is there", () => {
    expect(workerCount({ value: undefined, cores: 4, hasRedis: true })).toMatchObject({ workers: 4 });
    expect(workerCount({ value: "", cores: 2, hasRedis: true })).toMatchObject({ workers: 2 });
    expect(workerCount({ value: "auto", cores: 8, hasRedis: true })).toMatchObject({ workers: 8 });
  });

  it("runs one worker by default without Redis (several instances need it)", () => {
    expect(workerCount({ value: undefined, cores: 4, hasRedis: false })).toMatchObject({ workers: 1 });
  });

  it("takes HOLDFAST_WORKERS as given, also without Redis (the app then refuses and says why)", () => {
    expect(workerCount({ value: "1", cores: 8, hasRedis: true })).toEqual({ workers: 1, reason: "HOLDFAST_WORKERS" });
    expect(workerCount({ value: " 3 ", cores: 2, hasRedis: false })).toMatchObject({ workers: 3 });
  });

  it("refuses what is not a worker count", () => {
    for (const value of ["0", "-1", "1.5", "two", "257", "1e2"])
      expect(() => workerCount({ value, cores: 2, hasRedis: true })).toThrow(/HOLDFAST_WORKERS/);
  });
});

describe("workerEnvironment", () => {
  it("counts every worker as an instance for the limits' share of a cluster budget", () => {
    expect(workerEnvironment({ HOLDFAST_INSTANCES: "3" }, 2)).toMatchObject({
      HOLDFAST_INSTANCES: "6",
      HOLDFAST_WORKERS: "2",
    });
    expect(workerEnvironment({}, 4).HOLDFAST_INSTANCES).toBe("4");
  });
});

describe("restartDelayMs", () => {
  it("doubles from 1 s up to 30 s", () => {
    expect([1, 2, 3, 5, 6, 20].map(restartDelayMs)).toEqual([1_000, 2_000, 4_000, 16_000, 30_000, 30_000]);
  });
});

describe("workerNodeArgs", () => {
  it("gives each worker a larger young generation", () => {
    expect(workerNodeArgs({ nodeOptions: undefined, execArgv: [] })).toEqual([
      `--max-semi-space-size=${SEMI_SPACE_MB}`,
    ]);
    expect(workerNodeArgs({ nodeOptions: "--enable-source-maps", execArgv: ["--cpu-prof"] })).toEqual([
      `--max-semi-space-size=${SEMI_SPACE_MB}`,
    ]);
  });

  it("leaves an operator's own semi-space size alone, from NODE_OPTIONS or the command line", () => {
    expect(workerNodeArgs({ nodeOptions: "--max-semi-space-size=8", execArgv: [] })).toEqual([]);
    expect(workerNodeArgs({ nodeOptions: undefined, execArgv: ["--max-semi-space-size=128"] })).toEqual([]);
  });
});
