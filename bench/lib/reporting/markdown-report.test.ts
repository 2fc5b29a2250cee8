import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { PROJECT_ROOT } from "../servers/database";
import { writeMarkdownReport, type MarkdownReportOptions } from "./markdown-report";
import { latencyTimeChart } from "./svg-chart";

let resultsDir: string;

beforeEach(() => {
  resultsDir = mkdtempSync(join(tmpdir(), "holdfast-report-"));
});

afterEach(() => {
  rmSync(resultsDir, { recursive: true, force: true });
});

const chart = (name: string) => ({
  name,
  alt: `${name} over time [p50, p99]`,
  svg: latencyTimeChart({
    title: name,
    series: [
      {
        name: "p50",
        points: [
          [0, 10],
          [1, 12],
        ],
      },
    ],
  }),
});

function options(overrides: Partial<MarkdownReportOptions> = {}): MarkdownReportOptions {
  const jsonFile = join(resultsDir, "faults-2026-11-29T21-30-55Z.json");
  writeFileSync(jsonFile, "{}\n");
  return {
    scenario: "faults",
    title: "Faults: kill the app under load",
    verdict: "passed",
    summary: ["autosave    400.0 ok/s  p50 20.1 ms", "a line with ``` fences"],
    sections: [
      {
        heading: "Autosave",
        paragraphs: ["The app was killed at 40 s."],
        table: {
          columns: ["status", "count", "note"],
          rows: [
            ["200", 12_000, "fine"],
            ["ERR | ECONNREFUSED", 31, "during the\nkill"],
          ],
        },
        charts: [chart("autosave-latency"), chart("autosave-throughput")],
      },
      { heading: "Submit", charts: [chart("submit-latency")] },
    ],
    jsonFile,
    environment: { node: "v20.20.2", cpus: 2, loadAverageAtStart: [0.5, 0.25], gitCommit: null },
    resultsDir,
    ...overrides,
  };
}

/** The relative links of a markdown file, images included. */
function links(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1] ?? "");
}

describe("writeMarkdownReport", () => {
  it("writes the report next to its JSON, with every chart it links, and the same as latest", () => {
    const written = writeMarkdownReport(options());

    const file = resolve(PROJECT_ROOT, written);
    expect(file).toBe(join(resultsDir, "faults-2026-11-29T21-30-55Z.md"));
    for (const name of ["faults-2026-11-29T21-30-55Z.md", "faults-latest.md"]) {
      const markdown = readFileSync(join(resultsDir, name), "utf8");
      const targets = links(markdown);
      expect(targets).toHaveLength(4);
      for (const target of targets) expect(existsSync(join(dirname(file), target)), target).toBe(true);
      expect(targets).toContain("faults-2026-11-29T21-30-55Z.json");
    }
    const latest = readFileSync(join(resultsDir, "faults-latest.md"), "utf8");
    expect(links(latest)).toContain("faults-latest-submit-latency.svg");
    expect(readFileSync(join(resultsDir, "faults-latest-submit-latency.svg"), "utf8")).toContain("<svg");
  });

  it("shows the verdict, the printed lines, escaped tables and the environment", () => {
    const markdown = readFileSync(resolve(PROJECT_ROOT, writeMarkdownReport(options({ verdict: "failed" }))), "utf8");

    expect(markdown).toMatch(
      /^# Faults: kill the app under load\n\n❌ \*\*Failed\*\* · `npm run bench -- faults` · 2026-11-29 21:30:55 UTC/,
    );
    expect(markdown).toContain("````text\nautosave    400.0 ok/s  p50 20.1 ms\na line with ``` fences\n````");
    expect(markdown).toContain(
      "| status | count | note |\n| --- | ---: | --- |\n| 200 | 12000 | fine |\n| ERR \\| ECONNREFUSED | 31 | during the<br>kill |",
    );
    expect(markdown).toContain(
      "![autosave-latency over time \\[p50, p99\\]](faults-2026-11-29T21-30-55Z-autosave-latency.svg)",
    );
    expect(markdown).toContain("| loadAverageAtStart | [0.5,0.25] |");
    expect(markdown).toContain("| gitCommit | null |");
  });

  it("replaces the previous latest charts, and stamps the time when the JSON has another name", () => {
    writeMarkdownReport(options());
    writeMarkdownReport(
      options({
        sections: [{ heading: "Only", charts: [chart("only")] }],
        jsonFile: join(resultsDir, "elsewhere.json"),
      }),
    );

    const files = readdirSync(resultsDir);
    expect(files.filter((name) => name.startsWith("faults-latest"))).toEqual([
      "faults-latest-only.svg",
      "faults-latest.md",
    ]);
    expect(files.filter((name) => /^faults-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z-only\.svg$/.test(name))).toHaveLength(
      1,
    );
  });

  it("refuses chart names that would make odd or clashing files", () => {
    expect(() => writeMarkdownReport(options({ sections: [{ heading: "x", charts: [chart("Bad Name")] }] }))).toThrow(
      /lower-case/,
    );
    expect(() =>
      writeMarkdownReport(options({ sections: [{ heading: "x", charts: [chart("a"), chart("a")] }] })),
    ).toThrow(/two charts/);
  });
});
