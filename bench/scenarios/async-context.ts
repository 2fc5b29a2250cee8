// `npm run bench -- async-context`: what Node's AsyncLocalStorage costs every promise of a process once a store
// has been used (docs/benchmarks/log/2026-12-05-next-request-stores.md). On Node 20 the first `run` of any
// store turns on one promise hook for the whole process, and from then on every promise made anywhere — the
// candidate routes' own, pg's, ioredis's — calls each store that was ever used. Next.js uses its stores for every
// request it routes itself (three after the health check, nine after a page, counted on this build), and they
// stay on in the worker that also answers the candidates' routes (ADR 023). Each count is measured in a fresh
// process, `--repeat` times, alternating; the figure is the median, beside no store at all in the same run.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import { UsageError, type Flags } from "../lib/run/args";
import { say } from "../lib/run/log";
import { environment, formatRatio, ratio, writeResults } from "../lib/reporting/report";
import type { Scenario } from "../lib/run/scenario";

const run = promisify(execFile);
const PROGRAM = fileURLToPath(new URL("../lib/load/async-context-cost.mjs", import.meta.url));

export type AsyncContextOptions = { stores: number[]; calls: number; repeat: number };

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function measure(stores: number, calls: number, signal: AbortSignal): Promise<number> {
  const { stdout } = await run(process.execPath, [PROGRAM, String(stores), String(calls)], { signal });
  const line = JSON.parse(stdout.trim()) as { stores: number; nsPerAwait: number };
  if (line.stores !== stores || !Number.isFinite(line.nsPerAwait)) throw new Error(`unreadable measurement: ${stdout}`);
  return line.nsPerAwait;
}

export const asyncContextScenario: Scenario<AsyncContextOptions> = {
  name: "async-context",
  summary: "what AsyncLocalStorage's promise hook costs each awaited call, by how many stores were ever used",
  usage: [
    "  --stores a,b,…           store counts to measure beside 0 (3: Next after the health check; 9: after a page)  3,9",
    "  --calls N                awaited async calls per measurement                                   2000000",
    "  --repeat N               fresh processes per count (alternating; the median is reported)      5",
  ].join("\n"),

  options(flags: Flags): AsyncContextOptions {
    const given = flags.string("stores", "3,9") ?? "3,9";
    const stores = given.split(",").map((part) => Number(part.trim()));
    if (stores.some((count) => !Number.isInteger(count) || count < 1 || count > 100))
      throw new UsageError(`--stores takes whole numbers from 1 to 100, comma-separated (got "${given}")`);
    return {
      stores: [0, ...new Set(stores)],
      calls: flags.number("calls", 2_000_000, { min: 10_000, max: 100_000_000, isInteger: true }),
      repeat: flags.number("repeat", 5, { min: 1, max: 50, isInteger: true }),
    };
  },

  async run(options, signal) {
    const samples = new Map<number, number[]>(options.stores.map((count) => [count, []]));
    for (let round = 0; round < options.repeat && !signal.aborted; round += 1) {
      for (const count of options.stores) samples.get(count)!.push(await measure(count, options.calls, signal));
      say(`round ${round + 1}/${options.repeat} measured`);
    }
    const medians = new Map([...samples].map(([count, values]) => [count, median(values)]));
    const none = medians.get(0) ?? 0;
    console.log(
      `== async-context: ns per awaited async call, median of ${options.repeat} fresh processes (Node ${process.version}) ==`,
    );
    for (const [count, value] of medians) {
      const spread = samples.get(count)!;
      console.log(
        `${String(count).padStart(3)} stores used   ${value.toFixed(1).padStart(7)} ns   ${count === 0 ? "(no hook: the baseline)" : `${formatRatio(ratio(value, none))} the baseline, +${(value - none).toFixed(1)} ns per call`}   (${Math.min(...spread).toFixed(1)}–${Math.max(...spread).toFixed(1)})`,
      );
    }
    const file = writeResults("async-context", {
      scenario: "async-context",
      environment: environment(),
      options,
      samples: Object.fromEntries(samples),
      medians: Object.fromEntries(medians),
    });
    console.log(`results: ${file}`);
    return { isOk: true };
  },
};
