// Charts of a benchmark run as self-contained SVG strings (no script, no external font or style), readable
// as an image on GitHub, in a browser, in light or dark mode (the chart paints its own white background).
// Three kinds share one frame, one axis machinery and one palette:
// - latency over time, with a dashed vertical marker per fault event;
// - throughput over time, the same with the y axis from zero;
// - latency distribution: value at each percentile on a "nines" x axis (90%, 99%, 99.9%, 99.99% equally
//   spaced), the usual way to compare tails.
// Bad data never makes a bad SVG: non-finite values are gaps, a lone point is a dot, zeros on a log axis sit
// on its floor, far outliers on a linear axis are clipped at its top with a marker, and a note says so.

/** A fault or other moment of the run, seconds since its start; with `until`, a shaded stretch (Redis paused 90–100 s). */
export type ChartEvent = { t: number; label: string; until?: number };
export type ChartPoint = readonly [x: number, y: number];
export type ChartSeries = { name: string; points: readonly ChartPoint[] };

const WIDTH = 900;
const PLOT_HEIGHT = 300;
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
/** Okabe & Ito's colour-blind-safe palette, minus its yellow (unreadable on white); darkest first. */
const COLORS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"];
/** Past seven series the colours repeat, each round with another dash pattern. */
const DASHES = ["", "8 4", "2 3"];
const INK = "#222";
const MUTED = "#555";
const GRID = "#e3e3e3";
/** A white outline under a label, so a line crossing it does not cross out its letters. */
const HALO = 'stroke="#ffffff" stroke-width="4" stroke-linejoin="round" paint-order="stroke"';
/** Log axis chosen by default when the largest positive value is this many times the smallest. */
const AUTO_LOG_RATIO = 30;
/** Linear axis: clipped when the max is this many times the 98th percentile of the values. */
const OUTLIER_RATIO = 5;

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
    y: valueAxis(yValues, { label: options.yLabel ?? "latency (ms)", unit: "ms", logScale: options.logScale, fromZero: true }),
    lines: options.series.map(timeLine),
    events,
  });
}

function timeLine(series: ChartSeries): Line {
  const isEmpty = !series.points.some(([t, y]) => Number.isFinite(t) && Number.isFinite(y));
  return { name: series.name, legend: isEmpty ? `${series.name} (no data)` : series.name, points: series.points };
}

/** Requests (or ok requests) per second over time, with fault events; the y axis starts at zero. */
export function throughputChart(options: { title: string; series: ChartSeries[]; events?: ChartEvent[]; yLabel?: string }): string {
  const events = finiteEvents(options.events);
  const yValues = options.series.flatMap((series) => series.points.map(([, y]) => y));
  return renderChart({
    title: options.title,
    x: timeAxis([...options.series.flatMap((series) => series.points.map(([t]) => t)), ...eventTimes(events)]),
    y: valueAxis(yValues, { label: options.yLabel ?? "requests per second", unit: "/s", logScale: false, fromZero: true, isClipping: false }),
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
export function latencyDistributionChart(options: { title: string; series: { name: string; samplesSortedMs: ArrayLike<number> }[]; yLabel?: string; logScale?: boolean }): string {
  const prepared = options.series.map((series) => ({ name: series.name, sorted: sortedFinite(series.samplesSortedMs) }));
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
    points.push([reach, reach < xMax || n === 10 ** xMax ? (sorted[n - 1] ?? NaN) : nearestRank(sorted, 1 - 10 ** -xMax)]);
    const legend =
      n === 0
        ? `${name} (no samples)`
        : `${name}: p50 ${formatMs(nearestRank(sorted, 0.5))} · p99 ${formatMs(nearestRank(sorted, 0.99))} · max ${formatMs(sorted[n - 1] ?? NaN)} (n=${formatCount(n)})`;
    return { name, legend, points: n === 0 ? [] : points };
  });
  const x: Axis = {
    label: "percentile (nines scale: each step right is ten times rarer)",
    ticks: NINES_TICKS.filter((tick) => tick.nines <= xMax + 1e-9).map((tick) => ({ value: tick.nines, label: tick.label })),
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

// ---------------------------------------------------------------------------------------------- axes

type Tick = { value: number; label: string };

/** A domain mapped to [0, 1] (0 = left or bottom), its ticks, and notes about values it could not show. */
type Axis = { label: string; ticks: Tick[]; frac(value: number): number; notes: string[] };

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

function formatNumber(value: number, decimals: number): string {
  return value.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return "n/a";
  return `${formatNumber(ms, ms >= 100 ? 0 : ms >= 10 ? 1 : 2)} ms`;
}

function formatCount(count: number): string {
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
function timeAxis(values: number[]): Axis {
  const range = extent(finite(values)) ?? [0, 1];
  let [lo, hi] = range;
  if (hi === lo) [lo, hi] = [lo - 1, hi + 1];
  const isMinutes = hi - lo > 600;
  return linearAxis(lo, hi, isMinutes ? "minutes since start" : "seconds since start", { divisor: isMinutes ? 60 : 1, target: 10 });
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
  const tick = (value: number): Tick => ({ value, label: formatNumber(value, Math.max(0, -Math.floor(Math.log10(value) + 1e-9))) });
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
function valueAxis(
  values: number[],
  options: { label: string; unit: string; logScale?: boolean; fromZero: boolean; isClipping?: boolean },
): Axis {
  const shown = finite(values).sort((a, b) => a - b);
  const positive = shown.filter((value) => value > 0);
  const minPositive = positive[0];
  const maxPositive = positive.at(-1);
  const isLog = options.logScale ?? (minPositive !== undefined && maxPositive !== undefined && maxPositive / minPositive > AUTO_LOG_RATIO);
  if (isLog) {
    // Six decades at most: a 0.001 ms sample must not squash the rest.
    const floor = minPositive === undefined || maxPositive === undefined ? 1 : Math.max(minPositive, maxPositive / 1e6);
    const axis = logAxis(floor, maxPositive ?? 10, options.label);
    const below = shown.filter((value) => value < floor);
    if (below.length) {
      const what = below.every((value) => value <= 0) ? `of 0 ${options.unit} or less` : `below ${formatNumber(floor, decimalsFor(floor))} ${options.unit}`;
      axis.notes.push(`${formatCount(below.length)} value${below.length === 1 ? "" : "s"} ${what} drawn on the bottom edge (log scale)`);
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

// --------------------------------------------------------------------------------------------- frame

type Line = { name: string; legend: string; points: readonly ChartPoint[] };

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[char] ?? char);
}

/** A coordinate, one decimal; never NaN in the output. */
function n(value: number): string {
  return Number.isFinite(value) ? String(Math.round(value * 10) / 10) : "0";
}

/** Rough width of `text` at `size` px in a proportional sans-serif: enough to lay out labels without a font. */
function textWidth(text: string, size: number): number {
  return text.length * size * 0.6;
}

function finiteEvents(events: ChartEvent[] | undefined): ChartEvent[] {
  return (events ?? [])
    .filter((event) => Number.isFinite(event.t))
    .map((event) => (event.until === undefined || Number.isFinite(event.until) ? event : { t: event.t, label: event.label }))
    .sort((a, b) => a.t - b.t);
}

function eventTimes(events: ChartEvent[]): number[] {
  return events.flatMap((event) => (event.until === undefined ? [event.t] : [event.t, event.until]));
}

function text(x: number, y: number, content: string, attributes = ""): string {
  return `<text x="${n(x)}" y="${n(y)}"${attributes ? ` ${attributes}` : ""}>${escapeXml(content)}</text>`;
}

/** Places labels left to right in the first row where they do not overlap one already placed. */
function placeLabels(
  items: { x: number; width: number }[],
  bounds: { left: number; right: number },
): { row: number; x: number; anchor: "start" | "end" }[] {
  const rows: [number, number][][] = [];
  return items.map(({ x, width }) => {
    const isStart = x + 4 + width <= bounds.right;
    const from = isStart ? x : Math.max(bounds.left, x - 4 - width);
    const to = isStart ? x + 4 + width : x;
    let row = rows.findIndex((taken) => taken.every(([a, b]) => to + 8 <= a || from >= b + 8));
    if (row === -1) {
      row = rows.length;
      rows.push([]);
    }
    rows[row]?.push([from, to]);
    return { row, x: isStart ? x + 4 : x - 4, anchor: isStart ? "start" : "end" };
  });
}

/** Splits a line at non-finite values. */
function segments(points: readonly ChartPoint[]): ChartPoint[][] {
  const result: ChartPoint[][] = [];
  let current: ChartPoint[] = [];
  for (const point of points) {
    if (Number.isFinite(point[0]) && Number.isFinite(point[1])) current.push(point);
    else if (current.length) {
      result.push(current);
      current = [];
    }
  }
  if (current.length) result.push(current);
  return result;
}

function renderChart(chart: { title: string; x: Axis; y: Axis; lines: Line[]; events: ChartEvent[] }): string {
  const { x, y, lines, events } = chart;
  const yTickWidth = Math.max(0, ...y.ticks.map((tick) => textWidth(tick.label, 12)));
  const left = Math.round(30 + yTickWidth + 10);
  const right = WIDTH - 24;

  // Legend rows under the title.
  const legendItems: { line: Line; index: number; x: number; row: number }[] = [];
  let legendX = left;
  let legendRow = 0;
  lines.forEach((line, index) => {
    const width = 30 + textWidth(line.legend, 13) + 22;
    if (legendX + width > right && legendX > left) {
      legendRow += 1;
      legendX = left;
    }
    legendItems.push({ line, index, x: legendX, row: legendRow });
    legendX += width;
  });
  const legendTop = 52;
  const legendRows = lines.length ? legendRow + 1 : 0;

  // Event labels above the plot, each in the first row where it fits.
  const eventBand = { left, right };
  const placed = placeLabels(
    events.map((event) => ({ x: left + x.frac(event.t) * (right - left), width: textWidth(event.label, 12) })),
    eventBand,
  );
  const eventRows = Math.max(0, ...placed.map((label) => label.row + 1));
  const eventTop = legendTop + legendRows * 20 + 6;
  const top = eventTop + eventRows * 16 + (eventRows ? 8 : 4);
  const bottom = top + PLOT_HEIGHT;
  const notes = [...x.notes, ...y.notes];
  const height = bottom + 52 + notes.length * 16 + 8;

  const px = (value: number): number => left + Math.min(1, Math.max(0, x.frac(value))) * (right - left);
  const py = (value: number): number => bottom - Math.min(1, Math.max(0, y.frac(value))) * (bottom - top);
  const isClipped = (value: number): boolean => y.frac(value) > 1 + 1e-9;

  const out: string[] = [];
  const description = [
    lines.length ? `Lines: ${lines.map((line) => line.legend).join("; ")}.` : "No data.",
    events.length ? `Events: ${events.map((event) => `${event.label} ${event.until === undefined ? `at ${formatNumber(event.t, 1)}` : `from ${formatNumber(event.t, 1)} to ${formatNumber(event.until, 1)}`} s`).join("; ")}.` : "",
    ...notes,
  ]
    .filter(Boolean)
    .join(" ");
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${n(height)}" viewBox="0 0 ${WIDTH} ${n(height)}" role="img" font-family="${FONT}" font-size="12" fill="${INK}">`,
    `<title>${escapeXml(chart.title)}</title>`,
    `<desc>${escapeXml(description)}</desc>`,
    `<rect x="0" y="0" width="${WIDTH}" height="${n(height)}" fill="#ffffff"/>`,
    text(left, 30, chart.title, 'font-size="17" font-weight="600"'),
  );

  // Grid and ticks.
  out.push(`<g stroke="${GRID}" stroke-width="1">`);
  for (const tick of y.ticks) out.push(`<line x1="${n(left)}" y1="${n(py(tick.value))}" x2="${n(right)}" y2="${n(py(tick.value))}"/>`);
  for (const tick of x.ticks) out.push(`<line x1="${n(px(tick.value))}" y1="${n(top)}" x2="${n(px(tick.value))}" y2="${n(bottom)}"/>`);
  out.push("</g>");
  out.push(`<g fill="${MUTED}" font-size="12">`);
  for (const tick of y.ticks) out.push(text(left - 8, py(tick.value) + 4, tick.label, 'text-anchor="end"'));
  for (const tick of x.ticks) out.push(text(px(tick.value), bottom + 18, tick.label, 'text-anchor="middle"'));
  out.push("</g>");
  out.push(`<path d="M${n(left)} ${n(top)}V${n(bottom)}H${n(right)}" fill="none" stroke="#999" stroke-width="1"/>`);
  out.push(text(left + (right - left) / 2, bottom + 40, x.label, `text-anchor="middle" font-size="13" fill="${INK}"`));
  const yLabelY = top + (bottom - top) / 2;
  out.push(text(16, yLabelY, y.label, `text-anchor="middle" font-size="13" transform="rotate(-90 16 ${n(yLabelY)})"`));

  // Fault events: a shaded stretch for those with an end, then a dashed line through the plot from each label down.
  for (const event of events) {
    if (event.until === undefined) continue;
    const [from, to] = [px(event.t), px(event.until)].sort((a, b) => a - b) as [number, number];
    out.push(`<rect x="${n(from)}" y="${n(top)}" width="${n(Math.max(1, to - from))}" height="${n(bottom - top)}" fill="#000000" fill-opacity="0.07"/>`);
  }
  events.forEach((event, index) => {
    const label = placed[index];
    if (!label) return;
    const ex = px(event.t);
    const labelY = eventTop + label.row * 16 + 12;
    out.push(
      `<line x1="${n(ex)}" y1="${n(labelY - 11)}" x2="${n(ex)}" y2="${n(bottom)}" stroke="${MUTED}" stroke-width="1.2" stroke-dasharray="5 4"/>`,
      text(label.x, labelY, event.label, `text-anchor="${label.anchor}" font-size="12" fill="${INK}" ${HALO}`),
    );
  });

  // Series.
  const hasData = lines.some((line) => segments(line.points).length > 0);
  lines.forEach((line, index) => {
    const color = COLORS[index % COLORS.length] ?? INK;
    const dash = DASHES[Math.floor(index / COLORS.length) % DASHES.length] ?? "";
    const dashAttribute = dash ? ` stroke-dasharray="${dash}"` : "";
    for (const segment of segments(line.points)) {
      if (segment.length === 1) {
        const [only] = segment;
        if (only) out.push(`<circle cx="${n(px(only[0]))}" cy="${n(py(only[1]))}" r="3.5" fill="${color}"/>`);
        continue;
      }
      const d = segment.map(([vx, vy], at) => `${at === 0 ? "M" : "L"}${n(px(vx))} ${n(py(vy))}`).join("");
      out.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"${dashAttribute}/>`);
    }
    for (const [vx, vy] of line.points) {
      if (!Number.isFinite(vx) || !Number.isFinite(vy) || !isClipped(vy)) continue;
      const cx = px(vx);
      out.push(`<path d="M${n(cx - 5)} ${n(top + 7)}L${n(cx)} ${n(top - 1)}L${n(cx + 5)} ${n(top + 7)}Z" fill="${color}"/>`);
    }
  });
  if (!hasData) out.push(text(left + (right - left) / 2, top + (bottom - top) / 2, "no data", `text-anchor="middle" font-size="16" fill="${MUTED}" ${HALO}`));

  // Legend.
  for (const item of legendItems) {
    const color = COLORS[item.index % COLORS.length] ?? INK;
    const dash = DASHES[Math.floor(item.index / COLORS.length) % DASHES.length] ?? "";
    const ly = legendTop + item.row * 20;
    out.push(
      `<line x1="${n(item.x)}" y1="${n(ly - 4)}" x2="${n(item.x + 24)}" y2="${n(ly - 4)}" stroke="${color}" stroke-width="3"${dash ? ` stroke-dasharray="${dash}"` : ""}/>`,
      text(item.x + 30, ly, item.line.legend, 'font-size="13"'),
    );
  }

  notes.forEach((note, index) => out.push(text(left, bottom + 62 + index * 16, `Note: ${note}`, `font-size="12" fill="${MUTED}"`)));
  out.push("</svg>");
  return `${out.join("\n")}\n`;
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
