// The readable side of a run: a markdown file beside its JSON, with the printed summary, tables and SVG
// charts, and the same again as `<scenario>-latest.md` so docs can link one stable name.
//
// bench/results/
//   sync-2026-11-29T21-30-55Z.json                  writeResults
//   sync-2026-11-29T21-30-55Z.md                    this report
//   sync-2026-11-29T21-30-55Z-<chart>.svg           each chart, linked relatively from the report
//   sync-latest.md, sync-latest-<chart>.svg         the same, overwritten by every run
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, relative, resolve, sep } from "node:path";

import { PROJECT_ROOT } from "../servers/database";
import { RESULTS_DIR, resultStamp } from "./report";

export type ReportTable = { columns: string[]; rows: (string | number)[][] };
/** `name`: lower-case letters, digits and dashes, unique in the report; it ends the SVG's file name. */
export type ReportChart = { name: string; svg: string; alt: string };
/** `paragraphs` are markdown; table cells are inline markdown whose pipes and line breaks are escaped. */
export type ReportSection = { heading: string; paragraphs?: string[]; table?: ReportTable; charts?: ReportChart[] };

export type MarkdownReportOptions = {
  scenario: string;
  title: string;
  verdict: "passed" | "failed";
  /** The lines the run printed. */
  summary: string[];
  sections: ReportSection[];
  /** The run's JSON, relative to the project (what `writeResults` returned). */
  jsonFile: string;
  environment: Record<string, unknown>;
  /** bench/results by default; tests write elsewhere. */
  resultsDir?: string;
};

const STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z$/;
const CHART_NAME = /^[a-z0-9][a-z0-9-]*$/;

/**
 * Writes `<scenario>-<stamp>.md` and its charts, then the same as `<scenario>-latest.md` (the previous
 * latest charts removed first). The stamp is the JSON's when `jsonFile` is `<scenario>-<stamp>.json`, so
 * the report sits next to its figures; otherwise the current time. Returns the report's path relative
 * to the project.
 */
export function writeMarkdownReport(options: MarkdownReportOptions): string {
  const resultsDir = options.resultsDir ?? RESULTS_DIR;
  const charts = options.sections.flatMap((section) => section.charts ?? []);
  const names = new Set<string>();
  for (const chart of charts) {
    if (!CHART_NAME.test(chart.name))
      throw new Error(`chart name "${chart.name}" must be lower-case letters, digits and dashes`);
    if (names.has(chart.name)) throw new Error(`two charts are named "${chart.name}"`);
    names.add(chart.name);
  }
  const stamp = stampOf(options.scenario, options.jsonFile) ?? resultStamp();
  const jsonLink = relative(resultsDir, resolve(PROJECT_ROOT, options.jsonFile)).split(sep).join("/");
  mkdirSync(resultsDir, { recursive: true });

  const latestPrefix = `${options.scenario}-latest-`;
  for (const file of readdirSync(resultsDir)) {
    if (
      file.startsWith(latestPrefix) &&
      file.endsWith(".svg") &&
      CHART_NAME.test(file.slice(latestPrefix.length, -".svg".length))
    ) {
      rmSync(join(resultsDir, file));
    }
  }
  for (const base of [`${options.scenario}-${stamp}`, `${options.scenario}-latest`]) {
    const chartFile = (name: string): string => `${base}-${name}.svg`;
    for (const chart of charts) writeFileSync(join(resultsDir, chartFile(chart.name)), chart.svg);
    writeFileSync(join(resultsDir, `${base}.md`), renderMarkdownReport(options, { stamp, jsonLink, chartFile }));
  }
  return relative(PROJECT_ROOT, join(resultsDir, `${options.scenario}-${stamp}.md`));
}

function stampOf(scenario: string, jsonFile: string): string | null {
  const name = basename(jsonFile);
  const prefix = `${scenario}-`;
  if (!name.startsWith(prefix) || !name.endsWith(".json")) return null;
  const stamp = name.slice(prefix.length, -".json".length);
  return STAMP.test(stamp) ? stamp : null;
}

function renderMarkdownReport(
  options: MarkdownReportOptions,
  files: { stamp: string; jsonLink: string; chartFile(name: string): string },
): string {
  const when = files.stamp.replace(/T(\d{2})-(\d{2})-(\d{2})Z$/, " $1:$2:$3 UTC");
  const verdict = options.verdict === "passed" ? "✅ **Passed**" : "❌ **Failed**";
  const out: string[] = [
    `# ${oneLine(options.title)}`,
    "",
    `${verdict} · \`npm run bench -- ${options.scenario}\` · ${when} · figures: [${basename(files.jsonLink)}](${linkTarget(files.jsonLink)})`,
    "",
    "## Summary",
    "",
    ...fenced(options.summary),
  ];
  for (const section of options.sections) {
    out.push("", `## ${oneLine(section.heading)}`);
    for (const paragraph of section.paragraphs ?? []) out.push("", paragraph);
    if (section.table) out.push("", ...table(section.table));
    for (const chart of section.charts ?? [])
      out.push("", `![${escapeAlt(chart.alt)}](${linkTarget(files.chartFile(chart.name))})`);
  }
  const environment = Object.entries(options.environment).map(([key, value]) => [
    key,
    typeof value === "string" ? value : (JSON.stringify(value) ?? String(value)),
  ]);
  out.push("", "## Environment", "", ...table({ columns: ["item", "value"], rows: environment }));
  return `${out.join("\n")}\n`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

/** A code block whose fence is longer than any run of backticks in the lines. */
function fenced(lines: string[]): string[] {
  const longest = Math.max(
    0,
    ...lines.map((line) => Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length))),
  );
  const fence = "`".repeat(Math.max(3, longest + 1));
  return [`${fence}text`, ...lines, fence];
}

/** A table cell: its pipes escaped (GFM splits cells on them, even inside code spans), line breaks as <br>. */
function cell(value: string | number): string {
  const text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "n/a") : value;
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, "<br>");
}

/** Numeric columns (every cell a number) are right-aligned. */
function table({ columns, rows }: ReportTable): string[] {
  const width = Math.max(columns.length, ...rows.map((row) => row.length));
  const isNumeric = Array.from(
    { length: width },
    (_, index) => rows.length > 0 && rows.every((row) => typeof row[index] === "number"),
  );
  const line = (cells: string[]): string => `| ${cells.join(" | ")} |`;
  return [
    line(Array.from({ length: width }, (_, index) => cell(columns[index] ?? ""))),
    line(isNumeric.map((numeric) => (numeric ? "---:" : "---"))),
    ...rows.map((row) => line(Array.from({ length: width }, (_, index) => cell(row[index] ?? "")))),
  ];
}

function escapeAlt(alt: string): string {
  return oneLine(alt).replace(/[\\[\]]/g, (char) => `\\${char}`);
}

/** A relative link; in angle brackets when it has a space or parenthesis. */
function linkTarget(path: string): string {
  return /[\s()<>]/.test(path) ? `<${path.replace(/[<>]/g, encodeURIComponent)}>` : path;
}
