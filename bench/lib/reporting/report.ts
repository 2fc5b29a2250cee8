// How measurements are printed (one line each) and kept (a JSON file per run in bench/results/).
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join, relative } from "node:path";

import { PROJECT_ROOT } from "../servers/database";
import type { LoadResult } from "../load/load";

export const RESULTS_DIR = join(PROJECT_ROOT, "bench", "results");

function pad(text: string | number, width: number): string {
  return String(text).padStart(width);
}

/** One line of figures for one measurement. */
export function formatMeasurement(label: string, result: LoadResult, extra = ""): string {
  const { latency } = result;
  const statuses = Object.entries(result.statuses)
    .map(([key, count]) => `${key}×${count}`)
    .join(" ");
  const exhausted = result.exhaustedClients ? `  (${result.exhaustedClients} clients ran out of work)` : "";
  return (
    `${label.padEnd(20)} ${pad(result.throughput.toFixed(1), 8)} ok/s` +
    `  p50 ${pad(latency.p50.toFixed(1), 7)} ms  p95 ${pad(latency.p95.toFixed(1), 7)} ms  p99 ${pad(latency.p99.toFixed(1), 7)} ms` +
    `  n=${result.requests} in ${(result.elapsedMs / 1000).toFixed(1)} s  [${statuses || "no requests"}]` +
    `  429=${result.limited} unexpected=${result.unexpected}${extra ? `  ${extra}` : ""}${exhausted}`
  );
}

/** The lines of figures a run prints (stdout) and keeps for its results and report. */
export function figureLines(): { lines: string[]; show(line: string): void } {
  const lines: string[] = [];
  return {
    lines,
    show(line) {
      lines.push(line);
      console.log(line);
    },
  };
}

/** app / baseline, to two decimals; null ("n/a") when either side has no figure. */
export function ratio(app: number, baseline: number): number | null {
  return app > 0 && baseline > 0 ? Math.round((app / baseline) * 100) / 100 : null;
}

export function formatRatio(value: number | null): string {
  return value === null ? "n/a" : `${value.toFixed(2)}×`;
}

function git(args: string[]): string | null {
  try {
    return execFileSync("git", args, {
      cwd: PROJECT_ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return null;
  }
}

/** The machine and the code a run measured, for the results file. */
export function environment(): Record<string, unknown> {
  const cpuList = cpus();
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: cpuList.length,
    cpuModel: cpuList[0]?.model ?? "unknown",
    memoryMb: Math.round(totalmem() / 1024 / 1024),
    loadAverageAtStart: loadavg().map((value) => Math.round(value * 100) / 100),
    gitCommit: git(["rev-parse", "HEAD"]),
    gitChangedFiles: git(["status", "--porcelain"])?.split("\n").filter(Boolean).length ?? null,
  };
}

/** The time in a result file's name: `2026-11-29T21-30-55Z` (ISO 8601 to the second, colons made dashes). */
export function resultStamp(date = new Date()): string {
  return date
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replaceAll(":", "-");
}

/** Writes `bench/results/<scenario>-<timestamp>.json` and returns its path relative to the project. */
export function writeResults(scenario: string, data: unknown): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${scenario}-${resultStamp()}.json`);
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  return relative(PROJECT_ROOT, file);
}
