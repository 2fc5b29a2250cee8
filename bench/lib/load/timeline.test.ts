import { describe, expect, it } from "vitest";

import { TimelineRecorder, type TimelineKind } from "./timeline";

/** What a bucket's percentiles must be: nearest rank over the samples as Float32 holds them, to 0.01 ms. */
function reference(latencies: number[], percent: number): number {
  const sorted = latencies.map((value) => Math.fround(value)).sort((a, b) => a - b);
  const value = sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((percent / 100) * sorted.length) - 1))];
  return Math.round((value ?? NaN) * 100) / 100;
}

/** A deterministic spread of latencies: mostly 5–40 ms, a tail to seconds. */
function* samples(count: number, seed: number): Generator<{ atMs: number; latencyMs: number; kind: TimelineKind }> {
  let state = seed;
  const random = (): number => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  for (let index = 0; index < count; index += 1) {
    const roll = random();
    yield {
      atMs: random() * 10_000,
      latencyMs: roll < 0.98 ? 5 + random() * 35 : 200 + random() * 3_000,
      kind: roll < 0.9 ? "ok" : roll < 0.95 ? "limited" : "error",
    };
  }
}

describe("TimelineRecorder", () => {
  it("gives each bucket the exact nearest-rank percentiles of its samples", () => {
    const recorder = new TimelineRecorder();
    const all = [...samples(20_000, 7)];
    for (const { atMs, latencyMs, kind } of all) recorder.record(atMs, latencyMs, kind);

    for (const bucketMs of [1000, 500, 2500]) {
      const buckets = recorder.summary(bucketMs);
      expect(buckets).toHaveLength(Math.ceil(10_000 / bucketMs));
      for (const bucket of buckets) {
        const inside = all.filter(({ atMs }) => atMs >= bucket.t * 1000 && atMs < bucket.t * 1000 + bucketMs);
        const latencies = inside.map(({ latencyMs }) => latencyMs);
        expect(bucket.count).toBe(inside.length);
        expect(bucket.ok).toBe(inside.filter(({ kind }) => kind === "ok").length);
        expect(bucket.limited).toBe(inside.filter(({ kind }) => kind === "limited").length);
        expect(bucket.errors).toBe(inside.filter(({ kind }) => kind === "error").length);
        expect(bucket.p50).toBe(reference(latencies, 50));
        expect(bucket.p95).toBe(reference(latencies, 95));
        expect(bucket.p99).toBe(reference(latencies, 99));
        expect(bucket.max).toBe(Math.round(Math.max(...latencies) * 100) / 100);
      }
    }
  });

  it("takes the percentiles and max over the kinds asked for, and counts every request", () => {
    const recorder = new TimelineRecorder();
    const all = [...samples(5_000, 11)];
    for (const { atMs, latencyMs, kind } of all) recorder.record(atMs, latencyMs, kind);

    const buckets = recorder.summary(1000, { kinds: ["ok"] });
    for (const bucket of buckets) {
      const inside = all.filter(({ atMs }) => atMs >= bucket.t * 1000 && atMs < bucket.t * 1000 + 1000);
      const ok = inside.filter(({ kind }) => kind === "ok").map(({ latencyMs }) => latencyMs);
      expect(bucket.count).toBe(inside.length);
      expect(bucket.p99).toBe(reference(ok, 99));
      expect(bucket.max).toBe(Math.round(Math.max(...ok) * 100) / 100);
    }
    const sortedOk = recorder.sortedLatencies(["ok"]);
    expect(sortedOk).toHaveLength(all.filter(({ kind }) => kind === "ok").length);
    expect(recorder.sortedLatencies()).toHaveLength(all.length);
    expect([...sortedOk]).toEqual([...sortedOk].sort((a, b) => a - b));
  });

  it("keeps a silent stretch as empty buckets, with NaN percentiles", () => {
    const recorder = new TimelineRecorder();
    recorder.record(100, 10, "ok");
    recorder.record(3_200, 30, "error");

    const buckets = recorder.summary();

    expect(buckets.map((bucket) => bucket.t)).toEqual([0, 1, 2, 3]);
    expect(buckets[1]).toEqual({
      t: 1,
      count: 0,
      ok: 0,
      limited: 0,
      errors: 0,
      p50: NaN,
      p95: NaN,
      p99: NaN,
      max: NaN,
    });
    expect(buckets[3]).toMatchObject({ count: 1, errors: 1, p50: 30, max: 30 });
    // Only errors in the last bucket: asking for the ok latency leaves it without percentiles.
    expect(recorder.summary(1000, { kinds: ["ok"] })[3]).toMatchObject({ count: 1, p50: NaN, max: NaN });
  });

  it("has no buckets before the first request, accepts times before the start, and refuses non-finite input", () => {
    const recorder = new TimelineRecorder();
    expect(recorder.summary()).toEqual([]);
    expect(recorder.sortedLatencies()).toHaveLength(0);

    recorder.record(-1_500, 5, "ok");
    recorder.record(0, 7, "ok");
    expect(recorder.summary().map((bucket) => bucket.t)).toEqual([-2, -1, 0]);

    expect(() => recorder.record(NaN, 1, "ok")).toThrow(RangeError);
    expect(() => recorder.record(1, Infinity, "ok")).toThrow(RangeError);
    expect(recorder.count).toBe(2);
  });

  it("only gives buckets that are whole multiples of its resolution", () => {
    const recorder = new TimelineRecorder({ resolutionMs: 250 });
    recorder.record(10, 1, "ok");
    expect(recorder.summary(500)).toHaveLength(1);
    expect(() => recorder.summary(300)).toThrow(RangeError);
    expect(() => recorder.summary(0)).toThrow(RangeError);
    expect(() => new TimelineRecorder({ resolutionMs: 0.5 })).toThrow(RangeError);
  });

  it("grows a bucket past many doublings without losing a sample", () => {
    const recorder = new TimelineRecorder();
    for (let index = 0; index < 100_000; index += 1) recorder.record(50, index % 1000, "ok");
    const [bucket] = recorder.summary();
    expect(bucket).toMatchObject({ count: 100_000, p50: 499, p99: 989, max: 999 });
    expect(recorder.droppedLatencies).toBe(0);
  });
});
