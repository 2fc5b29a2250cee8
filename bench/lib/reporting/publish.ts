// `npm run bench -- publish <results/…json>` (or a scenario's `--publish`): copies one run's SVG charts from
// the git-ignored bench/results/ to docs/benchmarks/ (committed), named after the scenario and the chart
// (`exam-day-latency-autosave.svg`), so docs/benchmarks.md can show them with relative links. Publishing
// the same scenario again replaces its charts; the run's stamp is written beside them (`<scenario>.txt`).
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";

import { say, shout } from "../run/log";
import { PROJECT_ROOT } from "../servers/database";

export const PUBLISHED_DIR = join(PROJECT_ROOT, "docs", "benchmarks");

const RESULT_FILE = /^([a-z][a-z0-9-]*?)-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z)\.json$/;

/**
 * The names of the charts runs draw, after their scenario's name: latency-…, percentiles-… and throughput
 * (population-report.ts), and a lone percentiles (bad-input.ts, delta-vs-full.ts).
 */
const DRAWN = /^(latency-|percentiles(-|\.svg$)|throughput\.svg$)/;

export type Published = { scenario: string; stamp: string; charts: string[]; markdown: string };

/** Copies the charts of the run whose JSON is `jsonFile`; returns them and a markdown snippet showing them. */
export function publishCharts(jsonFile: string, options: { into?: string } = {}): Published {
  const json = resolve(PROJECT_ROOT, jsonFile);
  const match = RESULT_FILE.exec(basename(json));
  if (!match) throw new Error(`${jsonFile} is not a run's results file (<scenario>-<stamp>.json)`);
  if (!existsSync(json)) throw new Error(`${jsonFile} does not exist`);
  const [, scenario, stamp] = match as unknown as [string, string, string];
  const prefix = `${scenario}-${stamp}-`;
  const sources = readdirSync(dirname(json)).filter((file) => file.startsWith(prefix) && file.endsWith(".svg"));
  if (sources.length === 0) throw new Error(`the run ${scenario}-${stamp} has no charts next to its JSON`);
  const into = options.into ?? PUBLISHED_DIR;
  mkdirSync(into, { recursive: true });
  // The scenario's earlier charts go first: a chart the new run does not draw must not stay behind. Only charts
  // named as a run draws them (DRAWN): a set published under a name of its own (`exam-day-profiled-…`, linked from
  // docs/benchmarks/log/) stays, and so does another scenario whose name starts with this one's.
  for (const file of readdirSync(into))
    if (file.startsWith(`${scenario}-`) && file.endsWith(".svg") && DRAWN.test(file.slice(scenario.length + 1)))
      rmSync(join(into, file));
  const charts: string[] = [];
  for (const source of sources.sort()) {
    const target = `${scenario}-${source.slice(prefix.length)}`;
    copyFileSync(join(dirname(json), source), join(into, target));
    charts.push(target);
  }
  writeFileSync(join(into, `${scenario}.txt`), `${scenario}-${stamp}\n`);
  const docs = join(PROJECT_ROOT, "docs");
  const markdown = charts
    .map(
      (chart) =>
        `![${scenario}: ${chart.slice(scenario.length + 1, -".svg".length)}](${relative(docs, join(into, chart))})`,
    )
    .join("\n");
  return { scenario, stamp, charts: charts.map((chart) => relative(PROJECT_ROOT, join(into, chart))), markdown };
}

/**
 * How a scenario that can publish ends: says where its results and report are, publishes its charts when asked
 * (`--publish`), shouts its problems; ok when there are none.
 */
export function endRun(options: { json: string; report: string; isPublished: boolean; problems: readonly string[] }): {
  isOk: boolean;
} {
  say(`results: ${options.json}; report: ${options.report}`);
  if (options.isPublished) {
    const published = publishCharts(options.json);
    say(`published ${published.charts.length} charts to docs/benchmarks/:\n${published.markdown}`);
  }
  if (options.problems.length) shout(options.problems.join("\n"));
  return { isOk: options.problems.length === 0 };
}
