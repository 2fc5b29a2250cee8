"use client";

import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

import type { HealthPoint } from "@/lib/shared/schemas/proctor";

import styles from "./health-chart.module.css";

const HEIGHT = 190;

/** The palette of app/globals.css, read from the page so the canvas uses the same colours as the text. */
function palette(element: HTMLElement) {
  const style = getComputedStyle(element);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    autosave: read("--accent", "#1f5f8b"),
    submit: read("--ok", "#1f7a4d"),
    limited: read("--warn", "#8a5a00"),
    muted: read("--muted", "#5b6670"),
    line: read("--line", "#d9dde1"),
  };
}

/** uPlot's columns: seconds on x; missing p99s (no requests that minute) stay gaps. */
function toData(series: readonly HealthPoint[]): uPlot.AlignedData {
  return [
    series.map((point) => point.at / 1000),
    series.map((point) => point.autosaveP99Ms),
    series.map((point) => point.submitP99Ms),
    // A minute without 429s draws no bar (a zero-height bar would still draw a line along the axis).
    series.map((point) => (point.rateLimited === 0 ? null : point.rateLimited)),
  ];
}

function options(element: HTMLElement, width: number): uPlot.Options {
  const colours = palette(element);
  const axis = {
    stroke: colours.muted,
    grid: { stroke: colours.line, width: 1 },
    ticks: { stroke: colours.line, width: 1 },
  };
  return {
    width,
    height: HEIGHT,
    // Values show in the legend on hover; nothing moves on its own.
    cursor: { drag: { x: false, y: false }, points: { size: 6 } },
    legend: { live: true },
    scales: {
      x: { time: true },
      ms: { range: (_u, _min, max) => [0, Math.max(50, max * 1.15)] },
      count: { range: (_u, _min, max) => [0, Math.max(5, max * 1.15)] },
    },
    series: [
      { label: "Time" },
      {
        label: "Autosave p99",
        scale: "ms",
        stroke: colours.autosave,
        width: 2,
        points: { size: 4 },
        value: (_u, value) => (value === null || value === undefined ? "—" : `${Math.round(value)} ms`),
      },
      {
        label: "Submit p99",
        scale: "ms",
        stroke: colours.submit,
        width: 2,
        dash: [6, 4],
        // Submits are sparse until the deadline: always mark them, or a lone minute with submits draws nothing.
        points: { show: true, size: 4 },
        value: (_u, value) => (value === null || value === undefined ? "—" : `${Math.round(value)} ms`),
      },
      {
        label: "429s per minute",
        scale: "count",
        stroke: colours.limited,
        fill: `${colours.limited}33`,
        width: 1,
        paths: uPlot.paths.bars?.({ size: [0.6, 12] }),
        points: { show: false },
        value: (_u, value) => String(value ?? 0),
      },
    ],
    axes: [
      { ...axis, values: "{HH}:{mm}" },
      { ...axis, scale: "ms", label: "p99 (ms)", labelSize: 18, size: 50 },
      { ...axis, scale: "count", side: 1, label: "429s", labelSize: 18, size: 40, grid: { show: false } },
    ],
  };
}

/**
 * A small chart of the last hour: autosave and submit p99 as lines (left axis, milliseconds), 429s per
 * minute as bars (right axis). Drawn on a canvas by uPlot, without animation; follows its container's width.
 */
export function HealthChart({ series }: { series: readonly HealthPoint[] }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);

  // uPlot owns a canvas in the container: made once (empty; the effect below fills it, as effects run in
  // order), resized with the container, destroyed on unmount.
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const plot = new uPlot(options(container, Math.max(200, container.clientWidth)), toData([]), container);
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
  }, []);

  // The first numbers, and every new set, redraw the same chart.
  useEffect(() => {
    plotRef.current?.setData(toData(series));
  }, [series]);

  const latest = series.at(-1);
  const summary = latest
    ? `Last hour, per minute: autosave and submit p99 and 429s. This minute: autosave p99 ${latest.autosaveP99Ms ?? "none"}, submit p99 ${latest.submitP99Ms ?? "none"}, ${latest.rateLimited} 429s.`
    : "No data.";
  return <div ref={containerRef} className={styles.chart} role="img" aria-label={summary} />;
}
