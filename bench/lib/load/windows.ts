// Windows of a run placed around an event (a Redis freeze, the end of an overload burst) rather than on the
// run's own one-second grid, the answers by status in each window, and the recovery time read from them:
// what the `redis-freeze` and `overload` scenarios report.
import type { Request, Transport } from "../candidates/transport";
import { outcomeKey } from "./http-client";
import type { RunStats } from "./op-stats";
import { TimelineRecorder, type TimelineKind } from "./timeline";

/** The requests of one operation sent in [fromMs, toMs): counts, and percentiles of the kinds asked for. */
export type LatencyWindow = {
  fromMs: number;
  toMs: number;
  count: number;
  ok: number;
  limited: number;
  errors: number;
  /** NaN when no request of the kinds asked for was sent in the window. */
  p50: number;
  p99: number;
  max: number;
};

/**
 * The start of the first window of `stepMs` at or after `fromMs` on the grid through `anchorMs` (anchor − k ×
 * step): windows that begin exactly at the event, so none straddles it.
 */
export function alignedStart(anchorMs: number, fromMs: number, stepMs: number): number {
  if (!(stepMs > 0)) throw new RangeError(`stepMs must be positive, got ${stepMs}`);
  return anchorMs - Math.floor((anchorMs - fromMs) / stepMs) * stepMs;
}

/** The requests sent in [fromMs, toMs) as one window; percentiles over `kinds` (all by default). */
export function latencyWindow(
  timeline: TimelineRecorder,
  fromMs: number,
  toMs: number,
  kinds?: readonly TimelineKind[],
): LatencyWindow {
  const { count, ok, limited, errors, p50, p99, max } = timeline.between(fromMs, toMs, { kinds });
  return { fromMs, toMs, count, ok, limited, errors, p50, p99, max };
}

/** Consecutive windows of `stepMs` from `fromMs` while they start before `toMs` (the last one may be shorter). */
export function latencyWindows(
  timeline: TimelineRecorder,
  options: { fromMs: number; toMs: number; stepMs: number; kinds?: readonly TimelineKind[] },
): LatencyWindow[] {
  if (!(options.stepMs > 0)) throw new RangeError(`stepMs must be positive, got ${options.stepMs}`);
  const windows: LatencyWindow[] = [];
  for (let fromMs = options.fromMs; fromMs < options.toMs; fromMs += options.stepMs)
    windows.push(latencyWindow(timeline, fromMs, Math.min(fromMs + options.stepMs, options.toMs), options.kinds));
  return windows;
}

/**
 * How long after `fromMs` (the end of a burst, the end of a fault) the requests sent were answered well again,
 * for good: the start of the first window from which every later window either had every request answered
 * (no refusal, error or time-out) with the answered requests' p99 under `limitMs`, or had no request sent at
 * all. A window with a refused request is not recovered: the server is not back while it still turns work
 * away. Null when the last window with requests is not recovered (it never came back within the windows
 * given), or when no window after `fromMs` had a request. Windows starting before `fromMs` are ignored; with
 * windows aligned to `fromMs` (see `alignedStart`), a recovery within the first window reads 0.
 */
export function recoveryMs(
  windows: readonly LatencyWindow[],
  options: { fromMs: number; limitMs: number },
): number | null {
  let recoveredFrom: LatencyWindow | null = null;
  for (const window of windows) {
    if (window.fromMs < options.fromMs || window.count === 0) continue;
    if (!isRecovered(window, options.limitMs)) recoveredFrom = null;
    else recoveredFrom ??= window;
  }
  return recoveredFrom ? recoveredFrom.fromMs - options.fromMs : null;
}

/**
 * The first time after `fromMs` the requests were answered well (as `recoveryMs` judges a window), whatever came
 * after: with `recoveryMs`, it tells a slow return from one later spike. Null when no window after `fromMs` was.
 */
export function firstRecoveredMs(
  windows: readonly LatencyWindow[],
  options: { fromMs: number; limitMs: number },
): number | null {
  const first = windows.find(
    (window) => window.fromMs >= options.fromMs && window.count > 0 && isRecovered(window, options.limitMs),
  );
  return first ? first.fromMs - options.fromMs : null;
}

function isRecovered(window: LatencyWindow, limitMs: number): boolean {
  return window.ok > 0 && window.errors === 0 && window.p99 < limitMs;
}

/** What the candidates' requests were answered, by operation and status, over the time they were sent. */
export class StatusTimeline {
  private readonly byKey = new Map<string, TimelineRecorder>();

  record(operation: string, status: string, atMs: number, latencyMs: number): void {
    const key = `${operation}\u0000${status}`;
    let recorder = this.byKey.get(key);
    if (!recorder) {
      recorder = new TimelineRecorder();
      this.byKey.set(key, recorder);
    }
    recorder.record(atMs, latencyMs, "ok");
  }

  /** Requests of `operation` sent in [fromMs, toMs), by status ("200", "503 OVERLOADED", "ERR TIMEOUT", …). */
  counts(operation: string, fromMs: number, toMs: number): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const [key, recorder] of this.byKey) {
      const [name, status] = key.split("\u0000") as [string, string];
      if (name !== operation) continue;
      const count = recorder.between(fromMs, toMs).count;
      if (count > 0) counts[status] = count;
    }
    return counts;
  }
}

/** The operation a candidate's request belongs to, by its path (the app's API paths). */
export function operationOf(request: Pick<Request, "method" | "path">): string {
  const path = request.path.split("?")[0] ?? "";
  if (path.endsWith("/answers")) return "autosave";
  if (path.endsWith("/heartbeat")) return "heartbeat";
  if (path.endsWith("/submit")) return "submit";
  if (path === "/api/session") return "join";
  if (/^\/api\/exams\/[^/]+\/attempts$/.test(path)) return "start";
  return `${request.method} other`;
}

/** `transport`, with every answer also counted by operation and status in `statuses` (by when it was sent). */
export function countingTransport(transport: Transport, stats: RunStats, statuses: StatusTimeline): Transport {
  return async (request) => {
    const sentAt = stats.now();
    const result = await transport(request);
    statuses.record(operationOf(request), outcomeKey(result), sentAt, stats.now() - sentAt);
    return result;
  };
}
