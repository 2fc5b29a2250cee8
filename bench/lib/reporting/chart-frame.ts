// The frame every chart of svg-chart.ts is drawn in: title, axes, grid, lines with gaps, event markers,
// legend and notes, as one self-contained SVG string.

import { type Axis, formatNumber } from "./chart-axes";

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

/** A fault or other moment of the run, seconds since its start; with `until`, a shaded stretch (Redis paused 90–100 s). */
export type ChartEvent = { t: number; label: string; until?: number };
export type ChartPoint = readonly [x: number, y: number];
export type ChartSeries = { name: string; points: readonly ChartPoint[] };

export type Line = { name: string; legend: string; points: readonly ChartPoint[] };

function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[char] ?? char,
  );
}

/** A coordinate, one decimal; never NaN in the output. */
function n(value: number): string {
  return Number.isFinite(value) ? String(Math.round(value * 10) / 10) : "0";
}

/** Rough width of `text` at `size` px in a proportional sans-serif: enough to lay out labels without a font. */
function textWidth(text: string, size: number): number {
  return text.length * size * 0.6;
}

export function finiteEvents(events: ChartEvent[] | undefined): ChartEvent[] {
  return (events ?? [])
    .filter((event) => Number.isFinite(event.t))
    .map((event) =>
      event.until === undefined || Number.isFinite(event.until) ? event : { t: event.t, label: event.label },
    )
    .sort((a, b) => a.t - b.t);
}

export function eventTimes(events: ChartEvent[]): number[] {
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

export function renderChart(chart: { title: string; x: Axis; y: Axis; lines: Line[]; events: ChartEvent[] }): string {
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
    events.length
      ? `Events: ${events.map((event) => `${event.label} ${event.until === undefined ? `at ${formatNumber(event.t, 1)}` : `from ${formatNumber(event.t, 1)} to ${formatNumber(event.until, 1)}`} s`).join("; ")}.`
      : "",
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
  for (const tick of y.ticks)
    out.push(`<line x1="${n(left)}" y1="${n(py(tick.value))}" x2="${n(right)}" y2="${n(py(tick.value))}"/>`);
  for (const tick of x.ticks)
    out.push(`<line x1="${n(px(tick.value))}" y1="${n(top)}" x2="${n(px(tick.value))}" y2="${n(bottom)}"/>`);
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
    out.push(
      `<rect x="${n(from)}" y="${n(top)}" width="${n(Math.max(1, to - from))}" height="${n(bottom - top)}" fill="#000000" fill-opacity="0.07"/>`,
    );
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
      out.push(
        `<path d="${d}" fill="none" stroke="${color}" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"${dashAttribute}/>`,
      );
    }
    for (const [vx, vy] of line.points) {
      if (!Number.isFinite(vx) || !Number.isFinite(vy) || !isClipped(vy)) continue;
      const cx = px(vx);
      out.push(
        `<path d="M${n(cx - 5)} ${n(top + 7)}L${n(cx)} ${n(top - 1)}L${n(cx + 5)} ${n(top + 7)}Z" fill="${color}"/>`,
      );
    }
  });
  if (!hasData)
    out.push(
      text(
        left + (right - left) / 2,
        top + (bottom - top) / 2,
        "no data",
        `text-anchor="middle" font-size="16" fill="${MUTED}" ${HALO}`,
      ),
    );

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

  notes.forEach((note, index) =>
    out.push(text(left, bottom + 62 + index * 16, `Note: ${note}`, `font-size="12" fill="${MUTED}"`)),
  );
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
