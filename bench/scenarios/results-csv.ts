// `npm run bench -- results-csv`: the results export of a big exam streams in constant memory.
//
// 1. A private database, migrated; two exams of --questions questions seeded in SQL with scored papers: --small
//    candidates (1,000) and --candidates (10,000).
// 2. Each export streamed through the real route handler (GET /api/admin/exams/{id}/results.csv, the bearer token),
//    each in a fresh process (bench/lib/results/results-child.ts), sampling its RSS and heap every 5 ms and at every
//    chunk while the body is read.
// 3. The checks: 200, text/csv, the byte order mark, one line per candidate plus the header; and the peak RSS and
//    the live heap (after a full collection at every chunk) of the big export over the small one's close to 1 (at
//    most --max-memory-ratio): the file is streamed, not built. The sampled heap peak, garbage included, is shown too.
//    One line of figures per export, and bench/results/results-csv-<time>.json.
import { randomBytes } from "node:crypto";

import type { Flags } from "../lib/run/args";
import { createMigratedDatabase } from "../lib/servers/database";
import { say, shout } from "../lib/run/log";
import { environment, formatRatio, ratio, writeResults } from "../lib/reporting/report";
import type { Scenario } from "../lib/run/scenario";
import { childEnvironment, runResultsTask } from "../lib/results/run-results-child";

export type ResultsCsvOptions = { candidates: number; small: number; questions: number; maxMemoryRatio: number };

type Measured = {
  status: number;
  contentType: string | null;
  hasBom: boolean;
  bytes: number;
  lines: number;
  firstByteSeconds: number;
  totalSeconds: number;
  restingRssMb: number;
  restingHeapMb: number;
  peakRssMb: number;
  peakHeapMb: number;
  /** The heap after a full collection at every chunk: what the export holds, garbage aside. */
  peakLiveHeapMb: number;
};

export const resultsCsvScenario: Scenario<ResultsCsvOptions> = {
  name: "results-csv",
  summary: "the results CSV of a big exam streams through the route in flat memory (big vs small export)",
  usage: [
    "  --candidates N           candidates of the big export                           10000",
    "  --small N                candidates of the small export it is compared with      1000",
    "  --questions N            questions (a column each)                                 50",
    "  --max-memory-ratio R     peak RSS and live heap, big over small, at most          1.5",
  ].join("\n"),

  options(flags: Flags): ResultsCsvOptions {
    return {
      candidates: flags.number("candidates", 10_000, { min: 1, max: 500_000, isInteger: true }),
      small: flags.number("small", 1_000, { min: 1, max: 500_000, isInteger: true }),
      questions: flags.number("questions", 50, { min: 1, max: 500, isInteger: true }),
      maxMemoryRatio: flags.number("max-memory-ratio", 1.5, { min: 1, max: 100 }),
    };
  },

  async run(options, signal) {
    const problems: string[] = [];
    // 1.
    const database = await createMigratedDatabase("resultscsv");
    const adminToken = randomBytes(32).toString("base64url");
    const env = childEnvironment(database.url, adminToken);
    const sizes = [options.small, options.candidates];
    const exams: { candidates: number; examId: string }[] = [];
    for (const candidates of sizes) {
      const seeded = await runResultsTask<{ examId: string; seedSeconds: number }>(
        `seed ${candidates}`,
        { task: "csv-seed", candidates, questions: options.questions },
        env,
      );
      say(`seeded ${candidates} candidates x ${options.questions} questions in ${seeded.seedSeconds.toFixed(2)} s`);
      exams.push({ candidates, examId: seeded.examId });
      if (signal.aborted) return { isOk: false };
    }

    // 2. and 3.
    const measured: (Measured & { candidates: number })[] = [];
    for (const { candidates, examId } of exams) {
      const result = await runResultsTask<Measured>(
        `export ${candidates}`,
        { task: "csv-measure", examId, adminToken },
        env,
        ["--expose-gc"],
      );
      measured.push({ ...result, candidates });
      say(
        `${String(candidates).padStart(6)} candidates: ${(result.bytes / 2 ** 20).toFixed(1)} MiB in ` +
          `${result.totalSeconds.toFixed(2)} s (first byte ${(result.firstByteSeconds * 1000).toFixed(0)} ms, ` +
          `${Math.round(candidates / result.totalSeconds)} rows/s); peak RSS ${result.peakRssMb.toFixed(0)} MB ` +
          `(resting ${result.restingRssMb.toFixed(0)}), peak heap ${result.peakHeapMb.toFixed(0)} MB ` +
          `(resting ${result.restingHeapMb.toFixed(0)}), live heap after GC ${result.peakLiveHeapMb.toFixed(1)} MB`,
      );
      if (result.status !== 200) problems.push(`${candidates}: status ${result.status}`);
      if (!result.contentType?.startsWith("text/csv"))
        problems.push(`${candidates}: content type ${result.contentType}`);
      if (!result.hasBom) problems.push(`${candidates}: no byte order mark`);
      if (result.lines !== candidates + 1)
        problems.push(`${candidates}: ${result.lines} lines, expected ${candidates + 1}`);
    }
    const [small, big] = measured;
    const rssRatio = small && big ? ratio(big.peakRssMb, small.peakRssMb) : null;
    const heapRatio = small && big ? ratio(big.peakHeapMb, small.peakHeapMb) : null;
    const liveHeapRatio = small && big ? ratio(big.peakLiveHeapMb, small.peakLiveHeapMb) : null;
    const timeRatio = small && big ? ratio(big.totalSeconds, small.totalSeconds) : null;
    say(
      `big over small: peak RSS ${formatRatio(rssRatio)}, peak heap ${formatRatio(heapRatio)}, ` +
        `live heap ${formatRatio(liveHeapRatio)}, ` +
        `time ${formatRatio(timeRatio)} for ${formatRatio(ratio(options.candidates, options.small))} the rows`,
    );
    const isFlat =
      rssRatio !== null &&
      liveHeapRatio !== null &&
      rssRatio <= options.maxMemoryRatio &&
      liveHeapRatio <= options.maxMemoryRatio;
    say(
      `${isFlat ? "PASS" : "FAIL"}: peak RSS ${formatRatio(rssRatio)} and live heap ${formatRatio(liveHeapRatio)} ` +
        `for ${formatRatio(ratio(options.candidates, options.small))} the rows (each at most ${options.maxMemoryRatio} required)`,
    );
    if (!isFlat)
      problems.push(`memory grew with the rows: RSS ${formatRatio(rssRatio)}, live heap ${formatRatio(liveHeapRatio)}`);

    const file = writeResults("results-csv", {
      options,
      environment: environment(),
      measured,
      rssRatio,
      heapRatio,
      liveHeapRatio,
      timeRatio,
      problems,
    });
    say(`results: ${file}`);
    for (const problem of problems) shout(problem);
    return { isOk: problems.length === 0 };
  },
};
