// Charts of a benchmark run as self-contained SVG strings (no script, no external font or style), readable
// as an image on GitHub, in a browser, in light or dark mode (the chart paints its own white background).
// Three kinds share one frame, one axis machinery and one palette:
// - latency over time, with a dashed vertical marker per fault event;
// - throughput over time, the same with the y axis from zero;
// - latency distribution: value at each percentile on a "nines" x axis (90%, 99%, 99.9%, 99.99% equally
//   spaced), the usual way to compare tails.
// Bad data never makes a bad SVG: non-finite values are gaps, a lone point is a dot, zeros on a log axis sit
// on its floor, far outliers on a linear axis are clipped at its top with a marker, and a note says so.

import { type Axis, formatCount, formatMs, timeAxis, valueAxis } from "./chart-axes";
import {
  eventTimes,
  finiteEvents,
  renderChart,
  type ChartEvent,
  type ChartPoint,
  type ChartSeries,
  type Line,
} from "./chart-frame";

export type { ChartEvent, ChartPoint, ChartSeries } from "./chart-frame";

/** p50, p99… of each operation over time, with fault events. `logScale` defaults to log when the values span over AUTO_LOG_RATIO. */
export function latencyTimeChart(options: {
  title: string;
  series: ChartSeries[];
  events?: ChartEvent[];
  yLabel?: string;
  logScale?: boolean;
}): string {
  const events = finiteEvents(options.events);
  const yValues = options.series.flatMap((series) => series.points.map(([, y]) => y));
  return renderChart({
    title: options.title,
    x: timeAxis([...options.series.flatMap((series) => series.points.map(([t]) => t)), ...eventTimes(events)]),
    y: valueAxis(yValues, {
      label: options.yLabel ?? "latency (ms)",
      unit: "ms",
      logScale: options.logScale,
      fromZero: true,
    }),
    lines: options.series.map(timeLine),
    events,
  });
}

function timeLine(series: ChartSeries): Line {
  const isEmpty = !series.points.some(([t, y]) => Number.isFinite(t) && Number.isFinite(y));
  return { name: series.name, legend: isEmpty ? `${series.name} (no data)` : series.name, points: series.points };
}

/** Requests (or ok requests) per second over time, with fault events; the y axis starts at zero. */
export function throughputChart(options: {
  title: string;
  series: ChartSeries[];
  events?: ChartEvent[];
  yLabel?: string;
}): string {
  const events = finiteEvents(options.events);
  const yValues = options.series.flatMap((series) => series.points.map(([, y]) => y));
  return renderChart({
    title: options.title,
    x: timeAxis([...options.series.flatMap((series) => series.points.map(([t]) => t)), ...eventTimes(events)]),
    y: valueAxis(yValues, {
      label: options.yLabel ?? "requests per second",
      unit: "/s",
      logScale: false,
      fromZero: true,
      isClipping: false,
    }),
    lines: options.series.map(timeLine),
    events,
  });
}

const NINES_TICKS: { nines: number; label: string }[] = [
  { nines: 0, label: "0%" },
  { nines: Math.log10(2), label: "50%" },
  { nines: 1, label: "90%" },
  { nines: 2, label: "99%" },
  { nines: 3, label: "99.9%" },
  { nines: 4, label: "99.99%" },
];
const MAX_NINES = 4;
const DISTRIBUTION_STEPS = 400;

/**
 * Latency at each percentile, x on a "nines" scale (x = −log10(1 − p)), so 90%, 99%, 99.9% and 99.99% are
 * equally spaced, up to 99.99%. A curve stops at the last percentile its sample count can tell apart (99.9%
 * for 1,000 samples), where it shows the max; the legend gives each series' p50, p99, max and count.
 * Samples need not be sorted after all (an unsorted array is sorted in a copy); non-finite ones are skipped.
 */
export function latencyDistributionChart(options: {
  title: string;
  series: { name: string; samplesSortedMs: ArrayLike<number> }[];
  yLabel?: string;
  logScale?: boolean;
}): string {
  const prepared = options.series.map((series) => ({
    name: series.name,
    sorted: sortedFinite(series.samplesSortedMs),
  }));
  const largest = Math.max(1, ...prepared.map((series) => series.sorted.length));
  const xMax = Math.min(MAX_NINES, Math.max(1, Math.ceil(Math.log10(largest) - 1e-9)));
  const lines = prepared.map(({ name, sorted }) => {
    const n = sorted.length;
    const points: ChartPoint[] = [];
    const reach = Math.min(xMax, Math.log10(Math.max(n, 1)));
    for (let step = 0; step <= DISTRIBUTION_STEPS; step += 1) {
      const nines = (xMax * step) / DISTRIBUTION_STEPS;
      if (nines >= reach) break;
      points.push([nines, nearestRank(sorted, 1 - 10 ** -nines)]);
    }
    // A curve that stops short of the axis's end ends with its max, drawn at 1 − 1/n: the rarest percentile
    // n samples can speak for. One that reaches the end (more than 10,000 samples) ends with its 99.99%.
    points.push([
      reach,
      reach < xMax || n === 10 ** xMax ? (sorted[n - 1] ?? NaN) : nearestRank(sorted, 1 - 10 ** -xMax),
    ]);
    const legend =
      n === 0
        ? `${name} (no samples)`
        : `${name}: p50 ${formatMs(nearestRank(sorted, 0.5))} · p99 ${formatMs(nearestRank(sorted, 0.99))} · max ${formatMs(sorted[n - 1] ?? NaN)} (n=${formatCount(n)})`;
    return { name, legend, points: n === 0 ? [] : points };
  });
  const x: Axis = {
    label: "percentile (nines scale: each step right is ten times rarer)",
    ticks: NINES_TICKS.filter((tick) => tick.nines <= xMax + 1e-9).map((tick) => ({
      value: tick.nines,
      label: tick.label,
    })),
    frac: (nines) => nines / xMax,
    notes: [],
  };
  return renderChart({
    title: options.title,
    x,
    y: valueAxis(
      lines.flatMap((line) => line.points.map(([, y]) => y)),
      { label: options.yLabel ?? "latency (ms)", unit: "ms", logScale: options.logScale, fromZero: true },
    ),
    lines,
    events: [],
  });
}

// ------------------------------------------------------------------------------------------- samples

function sortedFinite(samples: ArrayLike<number>): Float64Array {
  let values = new Float64Array(samples.length);
  let size = 0;
  for (let index = 0; index < samples.length; index += 1) {
    const value = samples[index];
    if (value !== undefined && Number.isFinite(value)) values[size++] = value;
  }
  if (size < values.length) values = values.slice(0, size);
  for (let index = 1; index < values.length; index += 1) {
    if ((values[index - 1] ?? 0) > (values[index] ?? 0)) return values.sort();
  }
  return values;
}

/** Nearest-rank percentile, `fraction` in [0, 1]. */
function nearestRank(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] ?? NaN;
}
