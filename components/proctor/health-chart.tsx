"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

import type { ProctorWords } from "@/lib/shared/proctor/describe";
import { useProctorWords } from "@/lib/client/proctor/use-proctor-words";
import { formatClock } from "@/lib/shared/format";
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

/** The chart's words, in the reader's language (`proctor.chart`). */
type ChartWords = Record<"time" | "autosave" | "submit" | "rateLimited" | "msAxis" | "countAxis", string>;

function options(element: HTMLElement, width: number, labels: ChartWords, words: ProctorWords): uPlot.Options {
  const colours = palette(element);
  const ms = (_u: uPlot, value: number | null | undefined) =>
    value === null || value === undefined ? "—" : words.milliseconds(value);
  // Times of day in the screen's zone (the one its TimeZoneNote names), 24-hour.
  const hhmm = (seconds: number) => formatClock(seconds * 1000, words.locale, words.timeZone, false);
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
    // Ticks fall on whole minutes of the screen's zone, not the browser's.
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), words.timeZone),
    scales: {
      x: { time: true },
      ms: { range: (_u, _min, max) => [0, Math.max(50, max * 1.15)] },
      count: { range: (_u, _min, max) => [0, Math.max(5, max * 1.15)] },
    },
    series: [
      { label: labels.time, value: (_u, value) => (value === null ? "—" : hhmm(value)) },
      {
        label: labels.autosave,
        scale: "ms",
        stroke: colours.autosave,
        width: 2,
        points: { size: 4 },
        value: ms,
      },
      {
        label: labels.submit,
        scale: "ms",
        stroke: colours.submit,
        width: 2,
        dash: [6, 4],
        // Submits are sparse until the deadline: always mark them, or a lone minute with submits draws nothing.
        points: { show: true, size: 4 },
        value: ms,
      },
      {
        label: labels.rateLimited,
        scale: "count",
        stroke: colours.limited,
        fill: `${colours.limited}33`,
        width: 1,
        paths: uPlot.paths.bars?.({ size: [0.6, 12] }),
        points: { show: false },
        value: (_u, value) => words.number(value ?? 0),
      },
    ],
    axes: [
      { ...axis, values: (_u, splits) => splits.map(hhmm) },
      { ...axis, scale: "ms", label: labels.msAxis, labelSize: 18, size: 50 },
      { ...axis, scale: "count", side: 1, label: labels.countAxis, labelSize: 18, size: 40, grid: { show: false } },
    ],
  };
}

/**
 * A small chart of the last hour: autosave and submit p99 as lines (left axis, milliseconds), 429s per
 * minute as bars (right axis). Drawn on a canvas by uPlot, without animation; follows its container's width.
 */
export function HealthChart({ series }: { series: readonly HealthPoint[] }) {
  const t = useTranslations("proctor.chart");
  const words = useProctorWords();
  const containerRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);

  const labels: ChartWords = {
    time: t("time"),
    autosave: t("autosave"),
    submit: t("submit"),
    rateLimited: t("rateLimited"),
    msAxis: t("msAxis"),
    countAxis: t("countAxis"),
  };
  const labelsKey = JSON.stringify(labels);

  // uPlot owns a canvas in the container: made once per language and zone (empty; the effect below fills
  // it, as effects run in order), resized with the container, destroyed on unmount.
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const plot = new uPlot(
      options(container, Math.max(200, container.clientWidth), JSON.parse(labelsKey) as ChartWords, words),
      toData([]),
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
  }, [labelsKey, words]);

  // The first numbers, every new set, and a chart made again in another language are drawn here.
  useEffect(() => {
    plotRef.current?.setData(toData(series));
  }, [series, labelsKey, words]);

  const latest = series.at(-1);
  const p99 = (value: number | null) => (value === null ? t("none") : words.milliseconds(value));
  const summary = latest
    ? t("summary", {
        autosave: p99(latest.autosaveP99Ms),
        submit: p99(latest.submitP99Ms),
        rateLimited: words.number(latest.rateLimited),
      })
    : t("noData");
  return <div ref={containerRef} className={styles.chart} role="img" aria-label={summary} />;
}
