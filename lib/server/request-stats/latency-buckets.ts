import "server-only";

/**
 * Upper bounds (milliseconds) of the per-exam latency histogram. Fixed, so counts from every instance and
 * every minute add up bucket by bucket; fine enough between 5 ms and 2 s (where autosaves and submits live)
 * that a p99 read from them is within a bucket's width of the truth. A last, unbounded bucket follows.
 */
export const LATENCY_BOUNDS_MS = [
  5, 10, 15, 20, 30, 40, 50, 75, 100, 150, 200, 300, 400, 500, 750, 1000, 1500, 2000, 3000, 5000, 7500, 10000,
] as const;

/** How many buckets a histogram has: one per bound plus the overflow bucket. */
export const BUCKET_COUNT = LATENCY_BOUNDS_MS.length + 1;

/** The bucket a duration falls in: the first whose bound is at least the duration, else the overflow. */
export function bucketIndex(durationMs: number): number {
  // 23 bounds: a linear scan is as fast as a binary search and obviously right.
  for (let index = 0; index < LATENCY_BOUNDS_MS.length; index += 1) {
    if (durationMs <= LATENCY_BOUNDS_MS[index]!) return index;
  }
  return LATENCY_BOUNDS_MS.length;
}

export function emptyBuckets(): number[] {
  return new Array<number>(BUCKET_COUNT).fill(0);
}

/** Adds `from` into `into`, bucket by bucket. */
export function addBuckets(into: number[], from: readonly number[]): void {
  for (let index = 0; index < BUCKET_COUNT; index += 1) into[index] = (into[index] ?? 0) + (from[index] ?? 0);
}

/**
 * The q-quantile (0 < q ≤ 1) of a bucketed histogram, in milliseconds, or null when it is empty. Like
 * Prometheus's histogram_quantile: find the bucket holding the rank q·n and interpolate linearly inside it
 * (from 0 for the first bucket); a rank in the overflow bucket answers the last finite bound, since nothing
 * more is known than "above it".
 */
export function quantileMs(buckets: readonly number[], q: number): number | null {
  const total = buckets.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = q * total;
  let below = 0;
  for (let index = 0; index < BUCKET_COUNT; index += 1) {
    const count = buckets[index] ?? 0;
    if (count > 0 && below + count >= rank) {
      if (index === LATENCY_BOUNDS_MS.length) return LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1]!;
      const lower = index === 0 ? 0 : LATENCY_BOUNDS_MS[index - 1]!;
      const upper = LATENCY_BOUNDS_MS[index]!;
      return lower + (upper - lower) * ((rank - below) / count);
    }
    below += count;
  }
  return LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1]!;
}
