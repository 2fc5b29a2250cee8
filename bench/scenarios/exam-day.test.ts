import { describe, expect, it } from "vitest";

import { phaseOperation, RunStats, type OperationSummary } from "../lib/load/op-stats";
import { coresPerThousand, missedTargets, phaseAt, serverFaults, stormCpuPerRequestMs } from "./exam-day";

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

describe("stormCpuPerRequestMs", () => {
  it("divides the storm's CPU among the requests sent in the deadline phase, not what a candidate waits for", () => {
    const byPhase = {
      "autosave [answer]": operation(10),
      "autosave [deadline]": { ...operation(10), requests: 100 },
      "submit [deadline]": { ...operation(10), requests: 300 },
      "submit (click to done) [deadline]": { ...operation(10), requests: 280 },
      "join + start [deadline]": { ...operation(10), requests: 5 },
    };
    expect(stormCpuPerRequestMs({ serverMs: 1_000, postgresMs: 200 }, byPhase)).toEqual({ requests: 400, ms: 3 });
    expect(stormCpuPerRequestMs(null, byPhase)).toBeNull();
    expect(stormCpuPerRequestMs({ serverMs: 1, postgresMs: 1 }, { "autosave [answer]": operation(1) })).toBeNull();
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
        "autosave [answer]": operation(200),
        "submit (click to done)": operation(2_000),
      }),
    ).toEqual([]);
    expect(
      missedTargets({ "join + start": operation(1_001), "autosave [answer]": operation(250) }).map(
        (line) => line.split(" ")[0],
      ),
    ).toEqual(["join", "autosave", "submit"]);
  });

  it("allows click → done 1.5× the baseline's when that is more than 2 s, and no refused submit", () => {
    const met = { "join + start": operation(900), "autosave [answer]": operation(150) };
    const done = (p99: number) => ({ ...met, "submit (click to done)": operation(p99) });
    expect(missedTargets(done(2_900), 2_000)).toEqual([]);
    expect(missedTargets(done(3_100), 2_000)).toEqual(["submit (click to done) p99 3100 ms > 3000 ms"]);
    expect(missedTargets(done(2_100), 1_000)).toEqual(["submit (click to done) p99 2100 ms > 2000 ms"]);
    expect(missedTargets(done(2_100))).toEqual(["submit (click to done) p99 2100 ms > 2000 ms"]);
    expect(missedTargets(done(3_000), 1_675.15)).toEqual(["submit (click to done) p99 3000 ms > 2513 ms"]);
    expect(
      missedTargets({ ...done(500), submit: operation(100, { "200": 9, "503 OVERLOADED": 2, "503": 1 }) }),
    ).toEqual(["submit requests refused 503: 3"]);
    expect(missedTargets({ ...done(500), submit: operation(100, { "200": 9, "409 ALREADY_SUBMITTED": 2 }) })).toEqual(
      [],
    );
  });

  it("holds the autosave to its target in the answer phase: the whole run's figure has the deadline storm in it", () => {
    const met = { "join + start": operation(900), "submit (click to done)": operation(2_000) };
    expect(missedTargets({ ...met, autosave: operation(9_000), "autosave [answer]": operation(150) })).toEqual([]);
    expect(missedTargets({ ...met, autosave: operation(150), "autosave [answer]": operation(250) })).toEqual([
      "autosave [answer] p99 250 ms > 200 ms",
    ]);
    expect(missedTargets({ ...met, autosave: operation(150) })).toEqual(["autosave [answer]: no requests measured"]);
  });
});

describe("phaseAt", () => {
  const boundaries = { start: [0, 60_000], answer: [60_000, 360_000], deadline: [360_000, Infinity] } as const;
  it("puts a request in the phase it was sent in, a boundary in the later phase", () => {
    expect(phaseAt(0, boundaries)).toBe("start");
    expect(phaseAt(59_999, boundaries)).toBe("start");
    expect(phaseAt(60_000, boundaries)).toBe("answer");
    expect(phaseAt(359_999, boundaries)).toBe("answer");
    expect(phaseAt(360_000, boundaries)).toBe("deadline");
  });
});

describe("RunStats with phases", () => {
  it("keeps each operation for the whole run and, apart, by the phase each request was sent in", () => {
    let from = 0;
    const stats = new RunStats((atMs) =>
      phaseAt(atMs, {
        start: [0, from + 60_000],
        answer: [from + 60_000, from + 360_000],
        deadline: [from + 360_000, Infinity],
      }),
    );
    stats.startWindow();
    from = stats.now();
    stats.op("autosave").record(from + 10, 5, "200", "ok");
    stats.op("autosave").record(from + 70_000, 40, "200", "ok");
    stats.op("autosave").record(from + 400_000, 9_000, "503 OVERLOADED", "error");
    const whole = stats.operations.get("autosave")!.summary(1_000);
    expect([whole.requests, whole.ok, whole.errors]).toEqual([3, 2, 1]);
    expect([...stats.operations.keys()]).toEqual(["autosave"]);
    const answer = stats.phaseOperations.get(phaseOperation("autosave", "answer"))!.summary(1_000);
    expect([answer.requests, answer.latency.p99]).toEqual([1, 40]);
    expect(stats.phaseOperations.get("autosave [deadline]")!.summary(1_000).errors).toBe(1);
    expect(stats.phaseOperations.get("autosave [start]")!.summary(1_000).latency.p99).toBe(5);
  });
});
