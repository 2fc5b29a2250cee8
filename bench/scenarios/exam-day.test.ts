import { describe, expect, it } from "vitest";

import type { OperationSummary } from "../lib/load/op-stats";
import { coresPerThousand, missedTargets, serverFaults } from "./exam-day";

function operation(p99: number, statuses: Record<string, number> = { "200": 1 }): OperationSummary {
  const latency = { count: 1, min: p99, p50: p99, p95: p99, p99, max: p99, mean: p99 };
  return {
    requests: 1,
    ok: 1,
    limited: 0,
    errors: 0,
    unexpected: 0,
    throughput: 1,
    latency,
    latencyAll: latency,
    statuses,
  };
}

describe("coresPerThousand", () => {
  it("is CPU-seconds per second of app + Postgres per 1,000 candidates", () => {
    // 60 s of CPU (45 app + 15 Postgres) in 100 s: 0.6 cores, for 3,000 candidates: 0.2 per 1,000.
    expect(coresPerThousand({ serverMs: 45_000, postgresMs: 15_000 }, 100_000, 3_000)).toBe(0.2);
    expect(coresPerThousand({ serverMs: 1_000, postgresMs: 0 }, 0, 3_000)).toBe(0);
  });
});

describe("serverFaults", () => {
  it("flags every 5xx but the 503s of admission control and outages", () => {
    expect(
      serverFaults({
        autosave: operation(10, { "200": 5, "503 UNAVAILABLE": 2, "503": 1, "500 INTERNAL": 1 }),
        submit: operation(10, { "200": 5, "502": 3, "409 ALREADY_SUBMITTED": 1 }),
      }),
    ).toEqual(["autosave: 500 INTERNAL×1", "submit: 502×3"]);
    expect(serverFaults({ autosave: operation(10, { "200": 1, "ERR ECONNRESET": 4 }) })).toEqual([]);
  });
});

describe("missedTargets", () => {
  it("names each p99 over issue 17's targets, and an operation not measured", () => {
    expect(
      missedTargets({
        "join + start": operation(900),
        autosave: operation(200),
        "submit (click to done)": operation(2_000),
      }),
    ).toEqual([]);
    expect(
      missedTargets({ "join + start": operation(1_001), autosave: operation(250) }).map((line) => line.split(" ")[0]),
    ).toEqual(["join", "autosave", "submit"]);
  });
});
