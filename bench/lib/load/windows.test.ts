import { describe, expect, it } from "vitest";

import type { Transport } from "../candidates/transport";
import { RunStats } from "./op-stats";
import { TimelineRecorder } from "./timeline";
import {
  alignedStart,
  countingTransport,
  firstRecoveredMs,
  latencyWindows,
  operationOf,
  recoveryMs,
  StatusTimeline,
  type LatencyWindow,
} from "./windows";

/** A 5 s window starting at `fromS` seconds; `p99` NaN and `ok` 0 for a window with nothing answered. */
function window(fromS: number, p99: number, counts: { ok?: number; errors?: number; count?: number } = {}) {
  const ok = counts.ok ?? (Number.isNaN(p99) ? 0 : 10);
  const errors = counts.errors ?? 0;
  return {
    fromMs: fromS * 1000,
    toMs: fromS * 1000 + 5000,
    count: counts.count ?? ok + errors,
    ok,
    limited: 0,
    errors,
    p50: p99 / 2,
    p99,
    max: p99,
  } satisfies LatencyWindow;
}

describe("recoveryMs", () => {
  const burstEnd = { fromMs: 60_000, limitMs: 200 };

  it("is the start of the first window of the good stretch that lasts to the end, from the burst's end", () => {
    const windows = [window(55, 900), window(60, 800), window(65, 450), window(70, 150), window(75, 120)];
    expect(recoveryMs(windows, burstEnd)).toBe(10_000);
  });

  it("reads 0 when the first window after the burst is already good, and ignores windows before it", () => {
    expect(recoveryMs([window(50, 5_000), window(55, 5_000), window(60, 40), window(65, 35)], burstEnd)).toBe(0);
  });

  it("starts again after a relapse: one good window followed by a bad one does not count", () => {
    const windows = [window(60, 150), window(65, 700), window(70, 190), window(75, 100)];
    expect(recoveryMs(windows, burstEnd)).toBe(10_000);
  });

  it("is null when the last window is still over the limit (never back within the windows given)", () => {
    expect(recoveryMs([window(60, 150), window(65, 250)], burstEnd)).toBeNull();
  });

  it("takes the limit as strict: a p99 exactly at it is not recovered", () => {
    expect(recoveryMs([window(60, 200), window(65, 199.9)], burstEnd)).toBe(5_000);
  });

  it("does not count a window with refusals or errors as recovered, however fast its answered requests were", () => {
    const windows = [window(60, 20, { ok: 50, errors: 30 }), window(65, 25, { ok: 80, errors: 1 }), window(70, 30)];
    expect(recoveryMs(windows, burstEnd)).toBe(10_000);
    // Only refusals (nothing answered): not recovered either.
    expect(recoveryMs([window(60, 30), window(65, NaN, { errors: 12 })], burstEnd)).toBeNull();
  });

  it("skips windows where nothing was sent, and is null when nothing after the burst was sent at all", () => {
    const windows = [window(60, 500), window(65, NaN, { count: 0 }), window(70, 80), window(75, NaN, { count: 0 })];
    expect(recoveryMs(windows, burstEnd)).toBe(10_000);
    expect(recoveryMs([window(60, NaN, { count: 0 })], burstEnd)).toBeNull();
    expect(recoveryMs([], burstEnd)).toBeNull();
  });
});

describe("firstRecoveredMs", () => {
  it("is the first good window after the burst, even when a later one relapses", () => {
    const windows = [window(55, 50), window(60, 900), window(65, 150), window(70, 700), window(75, 100)];
    expect(firstRecoveredMs(windows, { fromMs: 60_000, limitMs: 200 })).toBe(5_000);
    expect(recoveryMs(windows, { fromMs: 60_000, limitMs: 200 })).toBe(15_000);
  });

  it("judges a window as recoveryMs does, and is null when none after the burst is good", () => {
    expect(
      firstRecoveredMs([window(60, 30, { ok: 5, errors: 1 }), window(65, 30)], { fromMs: 60_000, limitMs: 200 }),
    ).toBe(5_000);
    expect(firstRecoveredMs([window(55, 30), window(60, 300)], { fromMs: 60_000, limitMs: 200 })).toBeNull();
  });
});

describe("alignedStart", () => {
  it("puts a window boundary on the anchor, the first window at or after `fromMs`", () => {
    expect(alignedStart(60_000, 12_000, 5_000)).toBe(15_000);
    expect(alignedStart(60_000, 15_000, 5_000)).toBe(15_000);
    expect(alignedStart(32_500, 10_000, 5_000)).toBe(12_500);
    expect(alignedStart(60_000, 60_000, 5_000)).toBe(60_000);
    expect(() => alignedStart(1, 0, 0)).toThrow(RangeError);
  });
});

describe("latencyWindows and TimelineRecorder.between", () => {
  it("summarises the requests sent in each window, off the one-second grid", () => {
    const timeline = new TimelineRecorder();
    // 2.5–7.5 s: fast answers; 7.5–12.5 s: slow ones and a refusal.
    for (let atMs = 2_500; atMs < 7_500; atMs += 100) timeline.record(atMs, 10 + (atMs % 1_000) / 100, "ok");
    for (let atMs = 7_500; atMs < 12_500; atMs += 100) timeline.record(atMs, 400, "ok");
    timeline.record(8_000, 1, "error");

    const windows = latencyWindows(timeline, { fromMs: 2_500, toMs: 12_500, stepMs: 5_000, kinds: ["ok"] });

    expect(windows.map(({ fromMs, toMs }) => [fromMs, toMs])).toEqual([
      [2_500, 7_500],
      [7_500, 12_500],
    ]);
    expect(windows[0]).toMatchObject({ count: 50, ok: 50, errors: 0, p50: 14, p99: 19, max: 19 });
    expect(windows[1]).toMatchObject({ count: 51, ok: 50, errors: 1, p50: 400, p99: 400 });
  });

  it("gives a shorter last window, and an empty one NaN percentiles", () => {
    const timeline = new TimelineRecorder();
    timeline.record(100, 5, "ok");
    const windows = latencyWindows(timeline, { fromMs: 0, toMs: 7_000, stepMs: 5_000 });
    expect(windows.map(({ fromMs, toMs }) => [fromMs, toMs])).toEqual([
      [0, 5_000],
      [5_000, 7_000],
    ]);
    expect(windows[1]).toMatchObject({ count: 0, p99: NaN });
  });

  it("refuses bounds that are not finite or in order", () => {
    const timeline = new TimelineRecorder();
    expect(() => timeline.between(10, 5)).toThrow(RangeError);
    expect(() => timeline.between(0, Infinity)).toThrow(RangeError);
  });
});

describe("countingTransport", () => {
  it("counts each answer under its operation and status, by when it was sent", async () => {
    const stats = new RunStats();
    const statuses = new StatusTimeline();
    const answers = [
      { status: 200, headers: {}, body: "{}" },
      { status: 503, headers: {}, body: JSON.stringify({ error: { code: "OVERLOADED", message: "busy" } }) },
      { status: 0, headers: {}, body: "", error: "TIMEOUT" },
    ];
    let next = 0;
    const inner: Transport = () => Promise.resolve(answers[next++ % answers.length]!);
    const transport = countingTransport(inner, stats, statuses);
    for (let index = 0; index < 3; index += 1)
      await transport({ method: "POST", path: "/api/attempts/a1/answers", body: "{}", timeoutMs: 1_000 });
    await transport({ method: "POST", path: "/api/attempts/a1/heartbeat", body: "{}", timeoutMs: 1_000 });

    expect(statuses.counts("autosave", 0, stats.now() + 1_000)).toEqual({
      "200": 1,
      "503 OVERLOADED": 1,
      "ERR TIMEOUT": 1,
    });
    expect(statuses.counts("heartbeat", 0, stats.now() + 1_000)).toEqual({ "200": 1 });
    expect(statuses.counts("autosave", stats.now() + 1_000, stats.now() + 2_000)).toEqual({});
  });

  it("names the candidate's operations by path", () => {
    expect(operationOf({ method: "POST", path: "/api/attempts/x/answers" })).toBe("autosave");
    expect(operationOf({ method: "POST", path: "/api/attempts/x/heartbeat" })).toBe("heartbeat");
    expect(operationOf({ method: "POST", path: "/api/attempts/x/submit" })).toBe("submit");
    expect(operationOf({ method: "POST", path: "/api/session" })).toBe("join");
    expect(operationOf({ method: "POST", path: "/api/exams/e/attempts" })).toBe("start");
    expect(operationOf({ method: "GET", path: "/api/attempts/x/events?deviceId=d" })).toBe("GET other");
  });
});
