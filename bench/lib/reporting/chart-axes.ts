// The axes of the charts in svg-chart.ts: nice ticks; linear, log and time axes; and the value axis that
// picks between linear and log and clips far outliers.

/** Log axis chosen by default when the largest positive value is this many times the smallest. */
const AUTO_LOG_RATIO = 30;
/** Linear axis: clipped when the max is this many times the 98th percentile of the values. */
const OUTLIER_RATIO = 5;

type Tick = { value: number; label: string };

/** A domain mapped to [0, 1] (0 = left or bottom), its ticks, and notes about values it could not show. */
export type Axis = { label: string; ticks: Tick[]; frac(value: number): number; notes: string[] };

function finite(values: Iterable<number>): number[] {
  const result: number[] = [];
  for (const value of values) if (Number.isFinite(value)) result.push(value);
  return result;
}

function extent(values: number[]): [number, number] | null {
  if (values.length === 0) return null;
  let lo = Infinity;
  let hi = -Infinity;
  for (const value of values) {
    lo = Math.min(lo, value);
    hi = Math.max(hi, value);
  }
  return [lo, hi];
}

/** 1, 2 or 5 × 10^k: the tick step that gives about `target` ticks over `span`. */
function niceStep(span: number, target: number): number {
  const raw = span / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
}

function decimalsFor(step: number): number {
  return Math.max(0, Math.min(6, -Math.floor(Math.log10(step) + 1e-9)));
}

export function formatNumber(value: number, decimals: number): string {
  return value.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return "n/a";
  return `${formatNumber(ms, ms >= 100 ? 0 : ms >= 10 ? 1 : 2)} ms`;
}

export function formatCount(count: number): string {
  return formatNumber(count, 0);
}

/** Linear ticks over [lo, hi] widened to whole steps; `divisor` shows values in another unit (60: minutes). */
function linearAxis(lo: number, hi: number, label: string, options: { divisor?: number; target?: number } = {}): Axis {
  const divisor = options.divisor ?? 1;
  if (!(hi > lo)) [lo, hi] = lo === 0 ? [0, 1] : [lo - Math.abs(lo) * 0.5, hi + Math.abs(hi) * 0.5];
  const step = niceStep((hi - lo) / divisor, options.target ?? 6);
  const start = Math.floor(lo / divisor / step) * step;
  const end = Math.ceil(hi / divisor / step - 1e-9) * step;
  const ticks: Tick[] = [];
  const decimals = decimalsFor(step);
  for (let index = 0; start + index * step <= end + step * 1e-9; index += 1) {
    const shown = start + index * step;
    ticks.push({ value: shown * divisor, label: formatNumber(Math.abs(shown) < step * 1e-9 ? 0 : shown, decimals) });
  }
  const from = start * divisor;
  const to = end * divisor;
  return { label, ticks, frac: (value) => (value - from) / (to - from), notes: [] };
}

/** Seconds since the run's start, shown in minutes past ten minutes. */
export function timeAxis(values: number[]): Axis {
  const range = extent(finite(values)) ?? [0, 1];
  let [lo, hi] = range;
  if (hi === lo) [lo, hi] = [lo - 1, hi + 1];
  const isMinutes = hi - lo > 600;
  return linearAxis(lo, hi, isMinutes ? "minutes since start" : "seconds since start", {
    divisor: isMinutes ? 60 : 1,
    target: 10,
  });
}

const LOG_LADDER = [1, 2, 5];

/** The 1-2-5 value at or below (or above) `value`. */
function ladder(value: number, direction: "down" | "up"): number {
  const power = 10 ** Math.floor(Math.log10(value));
  const candidates = [...LOG_LADDER, 10].map((mantissa) => mantissa * power);
  if (direction === "down") return candidates.filter((candidate) => candidate <= value * (1 + 1e-9)).at(-1) ?? power;
  return candidates.find((candidate) => candidate >= value * (1 - 1e-9)) ?? power * 10;
}

function logAxis(lo: number, hi: number, label: string): Axis {
  const from = ladder(lo, "down");
  let to = ladder(hi, "up");
  if (to <= from) to = from * 10;
  const decades = Math.log10(to / from);
  const ticks: Tick[] = [];
  const tick = (value: number): Tick => ({
    value,
    label: formatNumber(value, Math.max(0, -Math.floor(Math.log10(value) + 1e-9))),
  });
  for (let power = Math.floor(Math.log10(from)); 10 ** power <= to * (1 + 1e-9); power += 1) {
    for (const mantissa of decades > 3 ? [1] : LOG_LADDER) {
      const value = mantissa * 10 ** power;
      if (value < from * (1 - 1e-9) || value > to * (1 + 1e-9)) continue;
      ticks.push(tick(value));
    }
  }
  // Decades only on a wide axis; its ends labelled too, unless a decade's label is close.
  if (decades > 3) {
    for (const end of [from, to]) {
      if (ticks.every((existing) => Math.abs(Math.log10(existing.value / end)) > 0.25)) ticks.push(tick(end));
    }
    ticks.sort((a, b) => a.value - b.value);
  }
  return {
    label: `${label}, log scale`,
    ticks,
    frac: (value) => (value <= 0 ? 0 : (Math.log10(value) - Math.log10(from)) / (Math.log10(to) - Math.log10(from))),
    notes: [],
  };
}

function quantile(sortedValues: number[], q: number): number {
  return sortedValues[Math.min(sortedValues.length - 1, Math.max(0, Math.ceil(q * sortedValues.length) - 1))] ?? NaN;
}

/** The y axis of values ≥ 0 (mostly): log or linear, with outliers clipped on a linear one. */
export function valueAxis(
  values: number[],
  options: { label: string; unit: string; logScale?: boolean; fromZero: boolean; isClipping?: boolean },
): Axis {
  const shown = finite(values).sort((a, b) => a - b);
  const positive = shown.filter((value) => value > 0);
  const minPositive = positive[0];
  const maxPositive = positive.at(-1);
  const isLog =
    options.logScale ??
    (minPositive !== undefined && maxPositive !== undefined && maxPositive / minPositive > AUTO_LOG_RATIO);
  if (isLog) {
    // Six decades at most: a 0.001 ms sample must not squash the rest.
    const floor = minPositive === undefined || maxPositive === undefined ? 1 : Math.max(minPositive, maxPositive / 1e6);
    const axis = logAxis(floor, maxPositive ?? 10, options.label);
    const below = shown.filter((value) => value < floor);
    if (below.length) {
      const what = below.every((value) => value <= 0)
        ? `of 0 ${options.unit} or less`
        : `below ${formatNumber(floor, decimalsFor(floor))} ${options.unit}`;
      axis.notes.push(
        `${formatCount(below.length)} value${below.length === 1 ? "" : "s"} ${what} drawn on the bottom edge (log scale)`,
      );
    }
    return axis;
  }
  const range = extent(shown);
  if (!range) return linearAxis(0, 1, options.label);
  const hi = range[1];
  const lo = options.fromZero ? Math.min(0, range[0]) : range[0];
  if (options.isClipping !== false && shown.length >= 10) {
    const typical = quantile(shown, 0.98);
    if (typical > 0 && hi > typical * OUTLIER_RATIO) {
      const axis = linearAxis(lo, typical * 1.5, options.label);
      const top = axis.ticks.at(-1)?.value ?? typical * 1.5;
      const clipped = shown.filter((value) => value > top).length;
      axis.notes.push(
        `${formatCount(clipped)} value${clipped === 1 ? "" : "s"} above ${formatNumber(top, decimalsFor(top))} ${options.unit} clipped (▲), the highest ${formatNumber(hi, hi >= 100 ? 0 : 1)} ${options.unit}; a log scale shows them`,
      );
      return axis;
    }
  }
  return linearAxis(lo, hi, options.label);
}
