// The readable report of a population run: the printed lines, the checker's counts, and charts —
// p50/p99 over time per operation and target (with the fault events marked), throughput over time,
// and the latency percentile curve of each target.
import type { CheckResult } from "../checking/checker";
import { writeMarkdownReport } from "./markdown-report";
import type { RunStats } from "../load/op-stats";
import { latencyDistributionChart, latencyTimeChart, throughputChart } from "./svg-chart";

export type ReportEvent = { atMs: number; label: string };

export function populationReport(options: {
  scenario: string;
  title: string;
  isOk: boolean;
  lines: string[];
  /** Per target ("app", "baseline"), the run's statistics. */
  stats: Record<string, RunStats>;
  /** The operations to chart, in order (those without requests are skipped). */
  operations: string[];
  events: ReportEvent[];
  check: CheckResult | null;
  jsonFile: string;
  environment: Record<string, unknown>;
  paragraphs?: string[];
  extraSections?: {
    heading: string;
    paragraphs?: string[];
    table?: { columns: string[]; rows: (string | number)[][] };
  }[];
}): string {
  const events = options.events.map((event) => ({ t: event.atMs / 1000, label: event.label }));
  const isComparison = Object.keys(options.stats).length > 1;
  // One latency chart per operation (p50 and p99 of each target), one throughput chart of the first
  // (main) operation, one percentile chart per operation.
  const latencyCharts: { name: string; svg: string; alt: string }[] = [];
  const distributionCharts: { name: string; svg: string; alt: string }[] = [];
  const throughputSeries: { name: string; points: [number, number][] }[] = [];
  for (const [position, operation] of options.operations.entries()) {
    const latencySeries: { name: string; points: [number, number][] }[] = [];
    const distribution: { name: string; samplesSortedMs: Float64Array }[] = [];
    for (const [target, stats] of Object.entries(options.stats)) {
      const op = stats.operations.get(operation);
      if (!op) continue;
      const buckets = op.buckets();
      if (buckets.every((bucket) => bucket.count === 0)) continue;
      const name = isComparison ? target : operation;
      // Seconds without an answered request leave a gap in the latency lines and a 0 in throughput.
      const answered = buckets.filter((bucket) => bucket.ok > 0);
      latencySeries.push({ name: `${name} p50`, points: answered.map((bucket) => [bucket.t, bucket.p50]) });
      latencySeries.push({ name: `${name} p99`, points: answered.map((bucket) => [bucket.t, bucket.p99]) });
      if (position === 0) {
        throughputSeries.push({ name: `${name} ok/s`, points: buckets.map((bucket) => [bucket.t, bucket.ok]) });
        if (buckets.some((bucket) => bucket.errors > 0))
          throughputSeries.push({
            name: `${name} errors/s`,
            points: buckets.map((bucket) => [bucket.t, bucket.errors]),
          });
      }
      const samples = op.sortedOkSamples();
      if (samples.length > 0) distribution.push({ name, samplesSortedMs: samples });
    }
    if (latencySeries.length === 0) continue;
    const slug = operation
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "");
    latencyCharts.push({
      name: `latency-${slug}`,
      svg: latencyTimeChart({
        title: `${operation}: latency per second`,
        series: latencySeries,
        events,
        yLabel: "ms",
        logScale: true,
      }),
      alt: `${operation}: p50 and p99 latency per second`,
    });
    if (distribution.length) {
      distributionCharts.push({
        name: `percentiles-${slug}`,
        svg: latencyDistributionChart({
          title: `${operation}: latency by percentile (measured window)`,
          series: distribution,
        }),
        alt: `${operation}: latency by percentile`,
      });
    }
  }
  const mainOperation = options.operations[0] ?? "requests";

  const sections: Parameters<typeof writeMarkdownReport>[0]["sections"] = [];
  if (options.paragraphs?.length) sections.push({ heading: "What ran", paragraphs: options.paragraphs });
  sections.push({
    heading: "Latency over time",
    paragraphs: [
      "Each point is one second of requests (by the time they were sent): p50 and p99 of the answered ones; a gap is a second with none answered. Dashed lines mark injected faults and phases.",
    ],
    charts: [
      ...latencyCharts,
      {
        name: "throughput",
        svg: throughputChart({
          title: `${mainOperation}: answered requests per second`,
          series: throughputSeries,
          events,
        }),
        alt: `${mainOperation}: answered requests per second`,
      },
    ],
  });
  if (distributionCharts.length) {
    sections.push({
      heading: "Latency distribution",
      paragraphs: ["Latency at each percentile of the measured window's answered requests."],
      charts: distributionCharts,
    });
  }
  if (options.check) {
    const check = options.check;
    sections.push({
      heading: "Checker",
      paragraphs: [
        "Every candidate's ledger against the final state read through the API and the database. Lost, duplicate submissions, stale overwrites, phantoms and paper digest mismatches must be 0.",
        ...(check.samples.length ? ["Examples:", ...check.samples.map((sample) => `- ${sample}`)] : []),
      ],
      table: {
        columns: ["count", "value"],
        rows: [
          ["candidates", check.candidates],
          ["edits made", check.edits],
          ["answers checked", check.answersChecked],
          ["lost", check.lost],
          ["duplicate submissions", check.duplicateSubmissions],
          ["stale overwrites", check.staleOverwrites],
          ["phantoms", check.phantoms],
          ["paper digest mismatches", check.paperDigestMismatches],
          ["device/server digest disagreements", check.clientDigestMismatches],
          ["submitted by the candidate", check.submitted.byCandidate],
          ["not submitted", check.notSubmitted],
          ["late answers", check.lateAnswers],
          ["API/database disagreements", check.apiDatabaseDisagreements],
          ["candidates stopped early", check.failedCandidates],
        ],
      },
    });
  }
  for (const section of options.extraSections ?? []) sections.push(section);
  return writeMarkdownReport({
    scenario: options.scenario,
    title: options.title,
    verdict: options.isOk ? "passed" : "failed",
    summary: options.lines,
    sections,
    jsonFile: options.jsonFile,
    environment: options.environment,
  });
}
