// Per-operation figures of a population run (join, start, autosave, heartbeat, submit, …): latency of
// every request, status counts, and a per-second timeline for the charts.
import { Counter, LatencyRecorder, type LatencySummary } from "./latency";
import { TimelineRecorder, type TimelineBucket } from "./timeline";

export type RequestKind = "ok" | "limited" | "error";

export type OperationSummary = {
  requests: number;
  ok: number;
  limited: number;
  /** Network errors (no answer: reset, dropped, time-out) and 5xx. */
  errors: number;
  /** 4xx other than 429 and the expected 409s: a client should never see these in a run. */
  unexpected: number;
  /** Completed `ok` requests per second of the measured window. */
  throughput: number;
  latency: LatencySummary;
  latencyAll: LatencySummary;
  statuses: Record<string, number>;
};

export class OperationStats {
  private readonly latency = new LatencyRecorder();
  private readonly latencyAll = new LatencyRecorder();
  readonly statuses = new Counter();
  readonly timeline = new TimelineRecorder();
  private kinds = { ok: 0, limited: 0, errors: 0, unexpected: 0 };
  /** Sorted latencies of ok requests, kept for the percentile chart (bounded like LatencyRecorder). */
  private readonly okSamples: number[] = [];

  constructor(
    private readonly window: () => { fromMs: number; toMs: number },
    /** Also records each request into the operation of the phase it was sent in (RunStats' `phaseOf`). */
    private readonly alsoRecord?: (
      atMs: number,
      latencyMs: number,
      key: string,
      kind: RequestKind | "unexpected",
    ) => void,
  ) {}

  /** `atMs`: when the request was sent, ms since the run started. */
  record(atMs: number, latencyMs: number, key: string, kind: RequestKind | "unexpected"): void {
    this.alsoRecord?.(atMs, latencyMs, key, kind);
    this.statuses.add(key);
    this.timeline.record(atMs, latencyMs, kind === "unexpected" ? "error" : kind);
    const window = this.window();
    if (atMs < window.fromMs || atMs >= window.toMs) return;
    this.latencyAll.record(latencyMs);
    if (kind === "ok") {
      this.latency.record(latencyMs);
      if (this.okSamples.length < 2_000_000) this.okSamples.push(latencyMs);
      this.kinds.ok += 1;
    } else if (kind === "limited") this.kinds.limited += 1;
    else if (kind === "error") this.kinds.errors += 1;
    else this.kinds.unexpected += 1;
  }

  summary(windowMs: number): OperationSummary {
    const requests = this.kinds.ok + this.kinds.limited + this.kinds.errors + this.kinds.unexpected;
    return {
      requests,
      ...this.kinds,
      throughput: windowMs > 0 ? Math.round((this.kinds.ok / windowMs) * 1000 * 10) / 10 : 0,
      latency: this.latency.summary(),
      latencyAll: this.latencyAll.summary(),
      statuses: this.statuses.toJSON(),
    };
  }

  sortedOkSamples(): Float64Array {
    return Float64Array.from(this.okSamples).sort();
  }

  buckets(): TimelineBucket[] {
    // Latency of answered requests only: fast refusals during an outage would read as "faster".
    return this.timeline.summary(1_000, { kinds: ["ok"] });
  }
}

/** The operation that holds `name`'s requests sent in `phase` (RunStats with `phaseOf`). */
export function phaseOperation(name: string, phase: string): string {
  return `${name} [${phase}]`;
}

export class RunStats {
  /**
   * `phaseOf`: the phase a request sent at `atMs` belongs to. Then every operation's requests are also kept per
   * phase, as `phaseOperation(name, phase)`: a figure for the whole run and one for each phase.
   */
  constructor(private readonly phaseOf?: (atMs: number) => string) {}

  readonly startedAt = performance.now();
  /** Nothing is measured until `startWindow()`. */
  private window = { fromMs: Infinity, toMs: Infinity };
  /** Each operation over the whole run. */
  readonly operations = new Map<string, OperationStats>();
  /** With `phaseOf`: each operation's requests by the phase they were sent in, keyed `phaseOperation(name, phase)`. */
  readonly phaseOperations = new Map<string, OperationStats>();

  /** Milliseconds since the run started. */
  now(): number {
    return performance.now() - this.startedAt;
  }

  /**
   * Requests sent outside the measured window (arrivals, the drain at the end) count in the status totals
   * and the timeline, not in the figures.
   */
  startWindow(): void {
    this.window = { fromMs: this.now(), toMs: Infinity };
  }

  endWindow(): void {
    this.window = { ...this.window, toMs: this.now() };
  }

  windowMs(): number {
    return Number.isFinite(this.window.toMs) ? this.window.toMs - this.window.fromMs : this.now() - this.window.fromMs;
  }

  op(name: string): OperationStats {
    let stats = this.operations.get(name);
    if (!stats) {
      const { phaseOf } = this;
      stats = new OperationStats(
        () => this.window,
        phaseOf
          ? (atMs, latencyMs, key, kind) =>
              this.phaseOp(phaseOperation(name, phaseOf(atMs))).record(atMs, latencyMs, key, kind)
          : undefined,
      );
      this.operations.set(name, stats);
    }
    return stats;
  }

  private phaseOp(name: string): OperationStats {
    let stats = this.phaseOperations.get(name);
    if (!stats) {
      stats = new OperationStats(() => this.window);
      this.phaseOperations.set(name, stats);
    }
    return stats;
  }
}
