"use client";

import { useLocale } from "next-intl";
import { useEffect, useRef, useState } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

import { formatNumber, formatPercent } from "@/lib/shared/format";

import { fitLabels } from "./fit-labels";
import styles from "./bar-chart.module.css";

const HEIGHT = 200;
/** The labels' font under the bars, as drawn and as measured. */
const AXIS_FONT = "12px system-ui, -apple-system, 'Segoe UI', 'Noto Sans CJK SC', sans-serif";

/** The palette of app/globals.css, read from the page so the canvas uses the same colours as the text. */
function palette(element: HTMLElement) {
  const style = getComputedStyle(element);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return { bar: read("--accent", "#1f5f8b"), muted: read("--muted", "#5b6670"), line: read("--line", "#d9dde1") };
}

export type BarChartProps = {
  /** One label per bar, under it ("Q1", "0–0.4", an option's label). */
  labels: readonly string[];
  /** One value per bar; null draws none. */
  values: readonly (number | null)[];
  /** What the bars stand for, named in the readout of the bar under the pointer ("Question"). */
  category: string;
  /** The series' name in the readout ("Candidates"). */
  series: string;
  /** "percent": ratios 0..1 on a scale to 1; "count": whole numbers from 0 to the largest value. */
  kind: "count" | "percent";
  /** What the chart shows, in a sentence: its accessible name, read in place of the canvas. */
  summary: string;
};

/**
 * A bar chart drawn by uPlot (the proctor dashboard's chart library; see components/proctor/health-chart.tsx):
 * one bar per label, without animation, following its container's width (a phone's too). The labels under the
 * bars never overlap (measured in their font: fit-labels.ts). Below, the bar under the pointer is read out
 * ("Score 0–0.4 · Candidates: 3"); with no bar under it, nothing (uPlot's own legend would show "—" for each).
 * The canvas is an image whose accessible name is `summary`, which names every value.
 */
export function BarChart({ labels, values, category, series, kind, summary }: BarChartProps) {
  const locale = useLocale();
  const containerRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);
  const [readout, setReadout] = useState("");
  const shapeKey = JSON.stringify({ labels, category, series, kind, locale });

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const shape = JSON.parse(shapeKey) as Pick<BarChartProps, "category" | "series" | "kind"> & {
      labels: string[];
      locale: string;
    };
    const names = shape.labels;
    const format = (value: number) =>
      shape.kind === "percent" ? formatPercent(value, shape.locale, 0) : formatNumber(value, shape.locale, 0);
    const colours = palette(container);
    const axis = {
      stroke: colours.muted,
      font: AXIS_FONT,
      grid: { stroke: colours.line, width: 1 },
      ticks: { stroke: colours.line },
    };
    const context = document.createElement("canvas").getContext("2d");
    if (context) context.font = AXIS_FONT;
    const measure = (text: string) => context?.measureText(text).width ?? text.length * 7;
    const plot = new uPlot(
      {
        width: Math.max(200, container.clientWidth),
        height: HEIGHT,
        cursor: { drag: { x: false, y: false }, points: { show: false } },
        legend: { show: false },
        hooks: {
          setCursor: [
            (u) => {
              const index = u.cursor.idx;
              const value = index === null || index === undefined ? null : u.data[1]?.[index];
              setReadout(
                index === null || index === undefined || value === null || value === undefined
                  ? ""
                  : `${shape.category} ${names[index] ?? ""} · ${shape.series}: ${format(value)}`,
              );
            },
          ],
        },
        scales: {
          x: { time: false, range: () => [-0.5, names.length - 0.5] },
          y: {
            range: (_u, _min, dataMax) => [0, shape.kind === "percent" ? 1 : Math.max(1, Math.ceil(dataMax * 1.1))],
          },
        },
        series: [
          { label: shape.category, value: (_u, index) => (index === null ? "—" : (names[Math.round(index)] ?? "")) },
          {
            label: shape.series,
            stroke: colours.bar,
            fill: `${colours.bar}aa`,
            width: 1,
            paths: uPlot.paths.bars?.({ size: [0.7, 60] }),
            points: { show: false },
            value: (_u, value) => (value === null || value === undefined ? "—" : format(value)),
          },
        ],
        axes: [
          {
            ...axis,
            grid: { show: false },
            // Every bar gets a tick; labels as many as fit without overlapping, cut with "…" when too long.
            splits: () => names.map((_, index) => index),
            values: (u) => fitLabels(names, u.bbox.width / uPlot.pxRatio / Math.max(1, names.length), measure),
          },
          {
            ...axis,
            size: 56,
            // Counts are whole: ticks at whole numbers only.
            ...(shape.kind === "count" ? { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000] } : {}),
            values: (_u, splits) => splits.map((value) => format(value)),
          },
        ],
      },
      [[], []],
      container,
    );
    plotRef.current = plot;
    const observer = new ResizeObserver(([entry]) => {
      const width = Math.floor(entry?.contentRect.width ?? 0);
      if (width > 0 && width !== plot.width) plot.setSize({ width, height: HEIGHT });
    });
    observer.observe(container);
    return () => {
      observer.disconnect();
      plot.destroy();
      plotRef.current = null;
    };
  }, [shapeKey]);

  const valuesKey = JSON.stringify(values);
  useEffect(() => {
    const data = JSON.parse(valuesKey) as (number | null)[];
    plotRef.current?.setData([data.map((_, index) => index), data]);
  }, [valuesKey, shapeKey]);

  return (
    <div className={styles.frame}>
      <div ref={containerRef} className={styles.chart} role="img" aria-label={summary} />
      {/* What the pointer shows; the summary above already names every value for assistive technology. */}
      <p className={styles.readout} aria-hidden="true">
        {readout}
      </p>
    </div>
  );
}
