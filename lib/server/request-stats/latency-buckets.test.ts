import { describe, expect, it } from "vitest";

import { addBuckets, bucketIndex, BUCKET_COUNT, emptyBuckets, LATENCY_BOUNDS_MS, quantileMs } from "./latency-buckets";

function histogram(durations: number[]): number[] {
  const buckets = emptyBuckets();
  for (const duration of durations) buckets[bucketIndex(duration)]! += 1;
  return buckets;
}

describe("bucketIndex", () => {
  it("puts a duration in the first bucket whose bound is at least it, and the rest in the overflow", () => {
    expect(bucketIndex(0)).toBe(0);
    expect(bucketIndex(5)).toBe(0);
    expect(bucketIndex(5.01)).toBe(1);
    expect(bucketIndex(100)).toBe(LATENCY_BOUNDS_MS.indexOf(100));
    expect(bucketIndex(101)).toBe(LATENCY_BOUNDS_MS.indexOf(150));
    expect(bucketIndex(10_000)).toBe(LATENCY_BOUNDS_MS.length - 1);
    expect(bucketIndex(60_000)).toBe(LATENCY_BOUNDS_MS.length);
    expect(BUCKET_COUNT).toBe(LATENCY_BOUNDS_MS.length + 1);
  });

  it("has increasing bounds from 5 ms to 10 s", () => {
    expect(LATENCY_BOUNDS_MS[0]).toBe(5);
    expect(LATENCY_BOUNDS_MS.at(-1)).toBe(10_000);
    for (let index = 1; index < LATENCY_BOUNDS_MS.length; index += 1) {
      expect(LATENCY_BOUNDS_MS[index]!).toBeGreaterThan(LATENCY_BOUNDS_MS[index - 1]!);
    }
  });
});

describe("quantileMs", () => {
  it("is null for an empty histogram", () => {
    expect(quantileMs(emptyBuckets(), 0.99)).toBeNull();
  });

  it("interpolates inside the bucket holding the rank", () => {
    // 99 fast requests (≤ 5 ms) and one slow one in (300, 400]: rank 99 is the last of the first bucket.
    const buckets = histogram([...Array<number>(99).fill(3), 350]);
    expect(quantileMs(buckets, 0.99)).toBe(5);
    // 98 fast and 2 slow: rank 99 is half way into the (300, 400] bucket.
    expect(quantileMs(histogram([...Array<number>(98).fill(3), 350, 350]), 0.99)).toBe(350);
    // All in one bucket: the p99 sits 99 % of the way through it.
    expect(quantileMs(histogram(Array<number>(100).fill(120)), 0.99)).toBeCloseTo(100 + 50 * 0.99, 6);
  });

  it("stays within one bucket's width of the true p99 of a spread of durations", () => {
    const durations = Array.from({ length: 1000 }, (_, index) => 2 + index * 1.5); // 2 … 1500.5 ms
    const truth = [...durations].sort((a, b) => a - b)[Math.ceil(0.99 * durations.length) - 1]!;
    const estimate = quantileMs(histogram(durations), 0.99)!;
    const index = bucketIndex(truth);
    const width = LATENCY_BOUNDS_MS[index]! - (LATENCY_BOUNDS_MS[index - 1] ?? 0);
    expect(Math.abs(estimate - truth)).toBeLessThanOrEqual(width);
  });

  it("answers the last finite bound when the rank is in the overflow bucket", () => {
    expect(quantileMs(histogram([20_000, 30_000]), 0.99)).toBe(10_000);
  });

  it("adds histograms bucket by bucket, so instances and minutes sum", () => {
    const a = histogram([3, 40, 40]);
    const b = histogram([40, 20_000]);
    addBuckets(a, b);
    expect(a[bucketIndex(40)]).toBe(3);
    expect(a[bucketIndex(3)]).toBe(1);
    expect(a[BUCKET_COUNT - 1]).toBe(1);
  });
});
