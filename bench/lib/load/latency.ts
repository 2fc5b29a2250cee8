// Latency samples of one measurement, kept whole (bounded) so percentiles are exact, not estimated.

export type LatencySummary = {
  count: number;
  min: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
};

const MAX_SAMPLES = 5_000_000;

export class LatencyRecorder {
  private samples = new Float64Array(4_096);
  private size = 0;
  private total = 0;

  /** Records one latency in milliseconds. Past MAX_SAMPLES (hours of load) samples are dropped. */
  record(ms: number): void {
    if (this.size === this.samples.length) {
      if (this.size >= MAX_SAMPLES) return;
      const grown = new Float64Array(Math.min(this.samples.length * 2, MAX_SAMPLES));
      grown.set(this.samples);
      this.samples = grown;
    }
    this.samples[this.size] = ms;
    this.size += 1;
    this.total += ms;
  }

  get count(): number {
    return this.size;
  }

  /** Every kept sample, sorted: for percentile charts. */
  sortedSamples(): Float64Array {
    return this.samples.slice(0, this.size).sort();
  }

  /** Nearest-rank percentiles. */
  summary(): LatencySummary {
    if (this.size === 0) return { count: 0, min: 0, mean: 0, p50: 0, p95: 0, p99: 0, max: 0 };
    const sorted = this.samples.slice(0, this.size).sort();
    const at = (percent: number): number =>
      sorted[Math.min(this.size - 1, Math.max(0, Math.ceil((percent / 100) * this.size) - 1))] ?? 0;
    return {
      count: this.size,
      min: round(sorted[0] ?? 0),
      mean: round(this.total / this.size),
      p50: round(at(50)),
      p95: round(at(95)),
      p99: round(at(99)),
      max: round(sorted[this.size - 1] ?? 0),
    };
  }
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

/** Counts of each outcome ("200", "429 RATE_LIMITED", "ERR ECONNRESET", …). */
export class Counter {
  private readonly counts = new Map<string, number>();

  add(key: string, by = 1): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + by);
  }

  get(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  toJSON(): Record<string, number> {
    return Object.fromEntries([...this.counts].sort(([a], [b]) => a.localeCompare(b)));
  }
}
