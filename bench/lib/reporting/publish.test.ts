import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { publishCharts } from "./publish";

describe("publishCharts", () => {
  it("copies one run's charts under stable names, replacing the scenario's earlier ones", () => {
    const root = mkdtempSync(join(tmpdir(), "publish-"));
    const results = join(root, "results");
    const into = join(root, "docs", "benchmarks");
    mkdirSync(results, { recursive: true });
    mkdirSync(into, { recursive: true });
    const json = join(results, "exam-day-2026-12-02T08-00-00Z.json");
    writeFileSync(json, "{}");
    writeFileSync(join(results, "exam-day-2026-12-02T08-00-00Z-latency-autosave.svg"), "<svg>a</svg>");
    writeFileSync(join(results, "exam-day-2026-12-02T08-00-00Z-throughput.svg"), "<svg>t</svg>");
    writeFileSync(join(results, "exam-day-2026-12-01T08-00-00Z-throughput.svg"), "<svg>old run</svg>");
    writeFileSync(join(into, "exam-day-percentiles-heartbeat.svg"), "<svg>stale</svg>");
    writeFileSync(join(into, "exam-day-percentiles.svg"), "<svg>stale, a lone percentiles chart</svg>");
    writeFileSync(join(into, "chaos-throughput.svg"), "<svg>chaos</svg>");
    // Published under names of their own, and linked from the docs: not the scenario's run charts.
    writeFileSync(join(into, "exam-day-profiled-throughput.svg"), "<svg>profiled</svg>");
    writeFileSync(join(into, "exam-day-latest-throughput.svg"), "<svg>latest</svg>");

    const published = publishCharts(json, { into });

    expect(published).toMatchObject({ scenario: "exam-day", stamp: "2026-12-02T08-00-00Z" });
    expect(readdirSync(into).sort()).toEqual([
      "chaos-throughput.svg",
      "exam-day-latency-autosave.svg",
      "exam-day-latest-throughput.svg",
      "exam-day-profiled-throughput.svg",
      "exam-day-throughput.svg",
      "exam-day.txt",
    ]);
    expect(readFileSync(join(into, "exam-day-throughput.svg"), "utf8")).toBe("<svg>t</svg>");
    expect(published.markdown.split("\n")).toHaveLength(2);
  });

  it("refuses a file that is not a run's results, and a run without charts", () => {
    const root = mkdtempSync(join(tmpdir(), "publish-"));
    expect(() => publishCharts(join(root, "notes.json"), { into: root })).toThrow(/results file/);
    const json = join(root, "sync-2026-12-02T08-00-00Z.json");
    writeFileSync(json, "{}");
    expect(() => publishCharts(json, { into: join(root, "out") })).toThrow(/no charts/);
    expect(existsSync(join(root, "out"))).toBe(false);
  });
});
