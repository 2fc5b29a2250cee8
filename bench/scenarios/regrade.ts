// `npm run bench -- regrade`: how long a corrected answer key takes to reach every paper of a big exam.
//
// 1. A private database, migrated; --workers results workers started, each in its own process as every app
//    instance starts its own (instrumentation.ts -> startResultsWorker).
// 2. In a driver process (bench/lib/results/results-child.ts): one exam of ten objective questions and an essay,
//    and --papers submitted papers with their answers, seeded in SQL (generate_series).
// 3. The baseline: every answer of every paper read once, in one query.
// 4. The first scoring: every paper queued (as the submits queue them), timed until the workers drained the queue.
// 5. The regrade: Q1's key corrected through updateExam (the PATCH route's operation), which queues every paper in
//    its transaction; timed from the call until the queue is drained again.
// 6. The checks: a "submitted" and a "regraded" result version per paper; for a random sample, Q1 and the total
//    moved exactly as the new key says, and the version names the correction. Within --budget seconds.
//    One line of figures per step, and bench/results/regrade-<time>.json.
import { randomBytes } from "node:crypto";

import type { Flags } from "../lib/run/args";
import { createMigratedDatabase } from "../lib/servers/database";
import { say, shout } from "../lib/run/log";
import { environment, formatRatio, ratio, writeResults } from "../lib/reporting/report";
import type { Scenario } from "../lib/run/scenario";
import { childEnvironment, runResultsTask, startResultsWorkerProcess } from "../lib/results/run-results-child";

export type RegradeOptions = { papers: number; workers: number; budgetSeconds: number; sample: number };

type RegradeReport = {
  papers: number;
  answers: number;
  seedSeconds: number;
  baselineSeconds: number;
  scoreSeconds: number;
  editSeconds: number;
  regradeSeconds: number;
  versions: Record<string, number>;
  sampleChecked: number;
  sampleSize: number;
  problems: string[];
};

export const regradeScenario: Scenario<RegradeOptions> = {
  name: "regrade",
  summary: "an answer-key correction re-scores every submitted paper through the results workers, within a budget",
  usage: [
    "  --papers N               submitted papers of the exam                           10000",
    "  --workers N              results worker processes (app instances)                   2",
    "  --budget S               the regrade must be done within S seconds                 60",
    "  --sample N               papers whose new result is checked one by one            500",
  ].join("\n"),

  options(flags: Flags): RegradeOptions {
    return {
      papers: flags.number("papers", 10_000, { min: 1, max: 200_000, isInteger: true }),
      workers: flags.number("workers", 2, { min: 1, max: 16, isInteger: true }),
      budgetSeconds: flags.number("budget", 60, { min: 1, max: 3600 }),
      sample: flags.number("sample", 500, { min: 1, max: 10_000, isInteger: true }),
    };
  },

  async run(options, signal) {
    // 1.
    const database = await createMigratedDatabase("regrade");
    const env = childEnvironment(database.url, randomBytes(32).toString("base64url"));
    const workers = [];
    for (let n = 1; n <= options.workers; n++)
      workers.push(await startResultsWorkerProcess(`results worker ${n}`, env));
    if (signal.aborted) return { isOk: false };
    say(`${options.workers} results worker process(es) running; seeding ${options.papers} papers`);

    // 2. to 6.
    const result = await runResultsTask<RegradeReport>(
      "regrade driver",
      { task: "regrade", papers: options.papers, budgetSeconds: options.budgetSeconds, sample: options.sample },
      env,
    );
    for (const worker of workers) await worker.stop();

    const problems = [...result.problems];
    const perSecond = (seconds: number) => (seconds > 0 ? Math.round(options.papers / seconds) : 0);
    say(`seed (SQL):               ${result.seedSeconds.toFixed(2)} s, ${result.answers} answers`);
    say(`baseline, read answers:   ${result.baselineSeconds.toFixed(3)} s`);
    say(
      `first scoring:            ${result.scoreSeconds.toFixed(2)} s, ${perSecond(result.scoreSeconds)} papers/s, ` +
        `${formatRatio(ratio(result.scoreSeconds, result.baselineSeconds))} the baseline`,
    );
    say(`the correction (PATCH):   ${result.editSeconds.toFixed(3)} s, every paper queued in its transaction`);
    say(
      `regrade, until drained:   ${result.regradeSeconds.toFixed(2)} s, ${perSecond(result.regradeSeconds)} papers/s, ` +
        `${formatRatio(ratio(result.regradeSeconds, result.baselineSeconds))} the baseline`,
    );
    say(`versions written:         ${JSON.stringify(result.versions)}`);
    say(`sample checked:           ${result.sampleChecked} of ${result.sampleSize} exactly as the new key says`);
    const isWithinBudget = result.regradeSeconds < options.budgetSeconds;
    say(
      `${isWithinBudget ? "PASS" : "FAIL"}: ${options.papers} papers regraded in ${result.regradeSeconds.toFixed(1)} s ` +
        `(under ${options.budgetSeconds} s required)`,
    );
    if (!isWithinBudget) problems.push(`the regrade took ${result.regradeSeconds.toFixed(1)} s`);
    if (result.sampleChecked !== result.sampleSize) problems.push("a sampled result is not as the new key says");

    const file = writeResults("regrade", {
      options,
      environment: environment(),
      ...result,
      papersPerSecond: perSecond(result.regradeSeconds),
      ratioToBaseline: ratio(result.regradeSeconds, result.baselineSeconds),
      isWithinBudget,
      problems,
    });
    say(`results: ${file}`);
    for (const problem of problems) shout(problem);
    return { isOk: problems.length === 0 };
  },
};
