import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

const bench = fileURLToPath(new URL(".", import.meta.url));

describe("bench/README.md", () => {
  it("lists every scenario of bench/scenarios/ in its table, with a command", () => {
    const readme = readFileSync(`${bench}/README.md`, "utf8");
    const scenarios = readdirSync(`${bench}/scenarios`)
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
      .map((file) => file.slice(0, -".ts".length));
    expect(scenarios.length).toBeGreaterThan(10);
    const rows = readme.split("\n").filter((line) => line.startsWith("| `"));
    const missing = scenarios.filter(
      (scenario) => !rows.some((row) => row.startsWith(`| \`${scenario}\``) && row.includes("`npm run bench")),
    );
    expect(missing).toEqual([]);
  });
});
