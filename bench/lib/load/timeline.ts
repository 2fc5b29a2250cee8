// Latency and outcomes over the time of a run, for the charts of a fault scenario: what happened in each
// second (or any bucket), not only over the whole window. Percentiles are exact: every latency is kept, in
// a Float32Array per 100 ms slot and outcome that doubles when full (4 bytes a sample, at most twice that
// while an array grows: 40–80 MB for 10 million samples). Float32 keeps 24 bits of mantissa: below the 0.01 ms
// the summary rounds to for any latency under a minute. Past MAX_KEPT samples (hours of load) latencies are
// no longer kept; counts and the max stay exact, and `droppedLatencies` says how many the percentiles miss.

export type TimelineKind = "ok" | "limited" | "error";

export type TimelineBucket = {
  /** Bucket start, seconds since the run's start. */
  t: number;
  count: number;
  ok: number;
  limited: number;
  errors: number;
  /** Nearest-rank percentiles, in ms, of the bucket's requests of the kinds asked for (all by default). NaN (null in JSON) when it had none. */
  p50: number;
  p95: number;
  p99: number;
  max: number;
};

const MAX_KEPT = 20_000_000;
const FIRST_CAPACITY = 16;
const KINDS: readonly TimelineKind[] = ["ok", "limited", "error"];

/** One kind of outcome in one slot: its count and max are exact; its latencies, kept while under MAX_KEPT. */
type Tally = { count: number; max: number; latencies: Float32Array; kept: number };
type Slot = Record<TimelineKind, Tally | undefined>;

export class TimelineRecorder {
  /** Slot index (floor(atMs / resolutionMs)) → its samples. Sparse: a silent stretch costs nothing. */
  private readonly slots = new Map<number, Slot>();
  private readonly resolutionMs: number;
  private kept = 0;
  private dropped = 0;

  /** `resolutionMs`: the finest bucket `summary` can give; every bucket size must be a multiple of it. */
  constructor(options: { resolutionMs?: number } = {}) {
    const resolutionMs = options.resolutionMs ?? 100;
    if (!Number.isInteger(resolutionMs) || resolutionMs <= 0)
      throw new RangeError(`resolutionMs must be a positive integer, got ${resolutionMs}`);
    this.resolutionMs = resolutionMs;
  }

  /**
   * One request: when it started (ms since the run's start; the start rather than the end, so a request
   * that hung across a fault shows at the fault), how long it took, and how it ended.
   */
  record(atMs: number, latencyMs: number, kind: TimelineKind): void {
    if (!Number.isFinite(atMs) || !Number.isFinite(latencyMs))
      throw new RangeError(`record(${atMs}, ${latencyMs}): both must be finite`);
    const index = Math.floor(atMs / this.resolutionMs);
    let slot = this.slots.get(index);
    if (!slot) {
      slot = { ok: undefined, limited: undefined, error: undefined };
      this.slots.set(index, slot);
    }
    let tally = slot[kind];
    if (!tally) {
      tally = { count: 0, max: -Infinity, latencies: new Float32Array(FIRST_CAPACITY), kept: 0 };
      slot[kind] = tally;
    }
    tally.count += 1;
    tally.max = Math.max(tally.max, latencyMs);
    if (this.kept >= MAX_KEPT) {
      this.dropped += 1;
      return;
    }
    if (tally.kept === tally.latencies.length) {
      const grown = new Float32Array(tally.latencies.length * 2);
      grown.set(tally.latencies);
      tally.latencies = grown;
    }
    tally.latencies[tally.kept] = latencyMs;
    tally.kept += 1;
    this.kept += 1;
  }

  get count(): number {
    return this.kept + this.dropped;
  }

  /** Samples counted but whose latency was not kept (past MAX_KEPT), so missing from the percentiles. */
  get droppedLatencies(): number {
    return this.dropped;
  }

  /**
   * One bucket per `bucketMs` from the first request's bucket to the last one's, empty buckets included
   * (count 0, percentiles NaN), so a stretch where nothing answered shows as zero throughput and a gap.
   * The counts cover every request; the percentiles and max cover the `kinds` asked for (all by default;
   * `["ok"]` for the latency of work done, so that fast refusals during an outage do not pull it down).
   */
  summary(bucketMs = 1000, options: { kinds?: readonly TimelineKind[] } = {}): TimelineBucket[] {
    if (!Number.isInteger(bucketMs / this.resolutionMs) || bucketMs <= 0) {
      throw new RangeError(
        `bucketMs must be a positive multiple of the resolution (${this.resolutionMs} ms), got ${bucketMs}`,
      );
    }
    const kinds = options.kinds ?? KINDS;
    const slotsPerBucket = bucketMs / this.resolutionMs;
    const byBucket = new Map<number, Slot[]>();
    let first = Infinity;
    let last = -Infinity;
    for (const [index, slot] of this.slots) {
      const bucket = Math.floor(index / slotsPerBucket);
      first = Math.min(first, bucket);
      last = Math.max(last, bucket);
      const list = byBucket.get(bucket);
      if (list) list.push(slot);
      else byBucket.set(bucket, [slot]);
    }
    const buckets: TimelineBucket[] = [];
    for (let bucket = first; bucket <= last; bucket += 1) {
      buckets.push(summarise((bucket * bucketMs) / 1000, byBucket.get(bucket) ?? [], kinds));
    }
    return buckets;
  }

  /**
   * One bucket for the requests sent in [fromMs, toMs) (ms since the run's start, rounded down to the
   * resolution), whatever the bucket grid: a phase of a run (a freeze, a burst) or a window aligned to an
   * event rather than to the run's start. `t` is `fromMs` in seconds; `kinds` as in `summary`.
   */
  between(fromMs: number, toMs: number, options: { kinds?: readonly TimelineKind[] } = {}): TimelineBucket {
    if (!Number.isFinite(fromMs) || !Number.isFinite(toMs) || toMs < fromMs)
      throw new RangeError(`between(${fromMs}, ${toMs}): need finite bounds, from ≤ to`);
    const first = Math.floor(fromMs / this.resolutionMs);
    const last = Math.floor(toMs / this.resolutionMs);
    const slots: Slot[] = [];
    for (const [index, slot] of this.slots) if (index >= first && index < last) slots.push(slot);
    return summarise(fromMs / 1000, slots, options.kinds ?? KINDS);
  }

  /** Every kept latency of the run (of `kinds`, all by default), sorted ascending: the input of a distribution chart. */
  sortedLatencies(kinds: readonly TimelineKind[] = KINDS): Float32Array {
    return gather([...this.slots.values()], kinds).sort();
  }
}

function gather(slots: Slot[], kinds: readonly TimelineKind[]): Float32Array {
  let size = 0;
  for (const slot of slots) for (const kind of kinds) size += slot[kind]?.kept ?? 0;
  const all = new Float32Array(size);
  let offset = 0;
  for (const slot of slots) {
    for (const kind of kinds) {
      const tally = slot[kind];
      if (!tally) continue;
      all.set(tally.latencies.subarray(0, tally.kept), offset);
      offset += tally.kept;
    }
  }
  return all;
}

function summarise(t: number, slots: Slot[], kinds: readonly TimelineKind[]): TimelineBucket {
  const counts = { ok: 0, limited: 0, error: 0 };
  let max = -Infinity;
  for (const slot of slots) {
    for (const kind of KINDS) {
      const tally = slot[kind];
      if (!tally) continue;
      counts[kind] += tally.count;
      if (kinds.includes(kind)) max = Math.max(max, tally.max);
    }
  }
  const latencies = gather(slots, kinds).sort();
  const kept = latencies.length;
  const at = (percent: number): number =>
    kept === 0 ? NaN : round(latencies[Math.min(kept - 1, Math.max(0, Math.ceil((percent / 100) * kept) - 1))] ?? NaN);
  return {
    t,
    count: counts.ok + counts.limited + counts.error,
    ok: counts.ok,
    limited: counts.limited,
    errors: counts.error,
    p50: at(50),
    p95: at(95),
    p99: at(99),
    max: max === -Infinity ? NaN : round(max),
  };
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
