// `npm run bench -- redis-freeze`: what a hung Redis costs the candidates (issue 17: "Redis frozen (SIGSTOP) for
// 20 s during the run: autosave p99 ≤ 1 s, 0 lost").
//
// The app (scripts/start.mjs, one worker per core, as `npm start`) on a Redis of the run's own and a database
// of its own. A population of light candidates arrives, then autosaves and heartbeats at the browser's timings
// (debounced deltas, one request in flight, the engine's retries). After a warm-up, Redis is frozen with
// SIGSTOP (connected, silent: the worst kind of Redis trouble) for `--freeze` seconds, then SIGCONT; after
// a while of answers, every candidate presses Submit within a window, and the checker demands every candidate
// submitted, nothing lost, nothing twice.
//
// In the same run, unless `--compare false`, a second pass does the same against the app with
// REDIS_BREAKER_DISABLED=true: each Redis call still gives up after REDIS_COMMAND_TIMEOUT_MS, but the breaker
// never opens, so every request pays its timeouts (the "before" of lib/server/redis/breaker.ts).
//
// Figures: autosave (and heartbeat, and submit click → done) p50/p99 before / during / after the freeze, and
// per 5 s window (aligned on the freeze's start), by the time the request was sent.
import { availableParallelism, loadavg } from "node:os";

import type { Flags } from "../lib/run/args";
import { startApp, type BuildMode } from "../lib/servers/app-server";
import { MAX_SOCKETS } from "../lib/load/baseline-population";
import { formatCheck, type CheckResult } from "../lib/checking/checker";
import { createMigratedDatabase } from "../lib/servers/database";
import { startPrivateRedis, type PrivateRedis } from "../lib/faults/private-redis";
import { createAgent } from "../lib/load/http-client";
import { errorMessage, say } from "../lib/run/log";
import { RunStats, type OperationSummary } from "../lib/load/op-stats";
import { httpTransport, runPopulation } from "../lib/load/population";
import { formatOperation } from "../lib/load/population-run";
import { populationReport } from "../lib/reporting/population-report";
import { endRun } from "../lib/reporting/publish";
import { environment, figureLines, writeResults } from "../lib/reporting/report";
import type { Scenario } from "../lib/run/scenario";
import { enrollCandidates } from "../lib/candidates/seed";
import { simCandidatesFor } from "../lib/candidates/sim-candidate";
import { BROWSER_TIMINGS } from "../lib/candidates/transport";
import { appEnvironment, buildApp, checkRun, createBenchExam } from "../lib/run/stage";
import {
  alignedStart,
  countingTransport,
  latencyWindow,
  latencyWindows,
  recoveryMs,
  StatusTimeline,
  type LatencyWindow,
} from "../lib/load/windows";
import { serverFaults } from "./exam-day";

export type RedisFreezeOptions = {
  candidates: number;
  rampSeconds: number;
  warmupSeconds: number;
  freezeSeconds: number;
  afterSeconds: number;
  submitWindowSeconds: number;
  editEverySeconds: number;
  workers: number;
  poolMax: number;
  isCompared: boolean;
  isTargetsChecked: boolean;
  isPublished: boolean;
  build: BuildMode;
};

/** Issue 17's target while Redis is frozen (checked only with `--targets`). */
export const REDIS_FREEZE_TARGETS = { freezeAutosaveP99Ms: 1_000 } as const;

/** Width of the timeline's windows. */
const WINDOW_MS = 5_000;
/** After the last Submit press: how long candidates keep retrying before the run gives up on them. */
const DRAIN_MS = 120_000;
/** The p99 a window must be under to count as back to normal after the freeze (the autosave target of issue 17). */
const NORMAL_P99_MS = 200;

const PHASES = ["before", "during", "after"] as const;
type Phase = (typeof PHASES)[number];
const OPERATIONS = ["autosave", "heartbeat"] as const;

export type PassFigures = {
  label: string;
  env: Record<string, string>;
  /** Per operation, per phase: the answered requests' p50/p99 and every request's count, by time sent. */
  phases: Record<string, Record<Phase, LatencyWindow>>;
  windows: Record<string, LatencyWindow[]>;
  /** Per window, autosave answers by status. */
  autosaveStatuses: Record<string, number>[];
  /** From SIGCONT until autosave windows are back under NORMAL_P99_MS with no error (null: not within the run). */
  recoveryAfterResumeMs: number | null;
  operations: Record<string, OperationSummary>;
  freeze: { pausedAtMs: number; resumedAtMs: number } | null;
  check: CheckResult;
  appLines: Record<string, number>;
  appLastErrors: string[];
};

/** The plan of one pass, in ms since its start. */
export function freezePlan(options: RedisFreezeOptions): {
  freezeFromMs: number;
  freezeToMs: number;
  editUntilMs: number;
  submitToMs: number;
  phases: Record<Phase, [number, number]>;
} {
  const rampMs = options.rampSeconds * 1_000;
  const freezeFromMs = rampMs + options.warmupSeconds * 1_000;
  const freezeToMs = freezeFromMs + options.freezeSeconds * 1_000;
  const editUntilMs = freezeToMs + options.afterSeconds * 1_000;
  return {
    freezeFromMs,
    freezeToMs,
    editUntilMs,
    submitToMs: editUntilMs + options.submitWindowSeconds * 1_000,
    phases: { before: [rampMs, freezeFromMs], during: [freezeFromMs, freezeToMs], after: [freezeToMs, editUntilMs] },
  };
}

/** The targets the main pass misses (empty: met). */
export function missedFreezeTargets(figures: Pick<PassFigures, "phases">): string[] {
  const during = figures.phases.autosave?.during;
  if (!during || during.ok === 0) return ["autosave: no request answered while Redis was frozen"];
  return during.p99 > REDIS_FREEZE_TARGETS.freezeAutosaveP99Ms
    ? [`autosave p99 while Redis was frozen ${during.p99} ms > ${REDIS_FREEZE_TARGETS.freezeAutosaveP99Ms} ms`]
    : [];
}

function ms(value: number): string {
  return Number.isNaN(value) ? "—" : value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;
}

/** One pass: an app with `extraEnv` on the shared private Redis, its own exam and candidates, the freeze, the checker. */
async function runPass(options: {
  label: string;
  extraEnv: Record<string, string>;
  run: RedisFreezeOptions;
  redis: PrivateRedis;
  databaseUrl: string;
  buildId: string | null;
  signal: AbortSignal;
}): Promise<{ figures: PassFigures; stats: RunStats; buildId: string } | null> {
  const { run, redis, signal } = options;
  const env = appEnvironment({
    databaseUrl: options.databaseUrl,
    redisUrl: redis.url,
    poolMax: run.poolMax,
    extra: options.extraEnv,
  });
  const buildId = options.buildId ?? (await buildApp({ mode: run.build, env, signal }));
  if (signal.aborted) return null;
  const app = await startApp({ buildId, env, signal, workers: run.workers });
  const exam = await createBenchExam({ port: app.port, adminToken: env.ADMIN_API_TOKEN, signal });
  const tokens = await enrollCandidates(exam.api, {
    examId: exam.examId,
    count: run.candidates,
    prefix: `freeze-${options.label.replace(/\W+/g, "-")}`,
  });
  exam.agent.destroy();

  const plan = freezePlan(run);
  const submitWindowMs = run.submitWindowSeconds * 1_000;
  const schedule = {
    arrivalSpreadMs: run.rampSeconds * 1_000,
    editMeanMs: run.editEverySeconds * 1_000,
    editUntilMs: plan.editUntilMs,
    submitAtMs: (index: number) => plan.editUntilMs + ((index * 0.618_033_988_75) % 1) * submitWindowMs,
  };
  const stats = new RunStats();
  const statuses = new StatusTimeline();
  const agent = createAgent(Math.min(run.candidates, MAX_SOCKETS));
  const candidates = simCandidatesFor(tokens, {
    examId: exam.examId,
    questions: exam.questions,
    transport: countingTransport(httpTransport(agent, app.port), stats, statuses),
    stats,
    timings: BROWSER_TIMINGS,
    giveUpAtMs: plan.submitToMs + DRAIN_MS,
    signal,
  });
  say(
    `redis-freeze [${options.label}]: ${run.candidates} candidates on ${run.workers} worker(s) (pid ${app.child.pid}), Redis pid ${redis.pid}; ` +
      `arrivals ${run.rampSeconds} s, Redis frozen ${(plan.freezeFromMs / 1000).toFixed(0)}–${(plan.freezeToMs / 1000).toFixed(0)} s, ` +
      `submits ${(plan.editUntilMs / 1000).toFixed(0)}–${(plan.submitToMs / 1000).toFixed(0)} s; load average ${loadavg()
        .map((value) => value.toFixed(2))
        .join(" ")}`,
  );

  // The freeze, on the pass's clock. A step that throws is a failed run, and Redis is never left stopped.
  let freeze: { pausedAtMs: number; resumedAtMs: number } | null = null;
  let freezeError: string | null = null;
  let pausedAtMs = NaN;
  const timers = [
    setTimeout(() => {
      try {
        redis.pause();
        pausedAtMs = stats.now();
        say(`redis-freeze [${options.label}]: Redis frozen (SIGSTOP) at ${(pausedAtMs / 1000).toFixed(1)} s`);
      } catch (error) {
        freezeError = `SIGSTOP failed: ${errorMessage(error)}`;
      }
    }, plan.freezeFromMs - stats.now()),
    setTimeout(() => {
      try {
        if (!redis.isPaused) return;
        redis.resume();
        freeze = { pausedAtMs, resumedAtMs: stats.now() };
        say(
          `redis-freeze [${options.label}]: Redis answers again (SIGCONT) at ${(freeze.resumedAtMs / 1000).toFixed(1)} s`,
        );
      } catch (error) {
        freezeError = `SIGCONT failed: ${errorMessage(error)}`;
      }
    }, plan.freezeToMs - stats.now()),
  ];
  stats.startWindow();
  try {
    await runPopulation(candidates, schedule, stats, signal);
  } finally {
    for (const timer of timers) clearTimeout(timer);
    if (redis.isPaused) redis.resume();
  }
  stats.endWindow();
  agent.destroy();
  if (signal.aborted) return null;
  if (freezeError) throw new Error(`redis-freeze [${options.label}]: ${freezeError}`);

  const check = await checkRun({
    port: app.port,
    databaseUrl: options.databaseUrl,
    ledgers: candidates.map((candidate) => candidate.ledger),
    cookies: candidates.map((candidate) => candidate.sessionCookie),
    isSubmitExpected: true,
    signal,
  });
  const appLines = app.child.lineCounts();
  const appLastErrors = app.child
    .tail()
    .filter((line) => line.includes('"level":"error"'))
    .slice(-10);
  await app.stop();

  const windowMs = stats.windowMs();
  const operations: Record<string, OperationSummary> = {};
  for (const [name, operation] of stats.operations) operations[name] = operation.summary(windowMs);
  const phases: PassFigures["phases"] = {};
  const windows: PassFigures["windows"] = {};
  const windowsFrom = alignedStart(plan.freezeFromMs, plan.phases.before[0], WINDOW_MS);
  for (const operation of OPERATIONS) {
    const timeline = stats.operations.get(operation)?.timeline;
    if (!timeline) continue;
    const phase = (range: [number, number]): LatencyWindow => latencyWindow(timeline, range[0], range[1], ["ok"]);
    phases[operation] = {
      before: phase(plan.phases.before),
      during: phase(plan.phases.during),
      after: phase(plan.phases.after),
    };
    windows[operation] = latencyWindows(timeline, {
      fromMs: windowsFrom,
      toMs: plan.editUntilMs,
      stepMs: WINDOW_MS,
      kinds: ["ok"],
    });
  }
  const autosaveWindows = windows.autosave ?? [];
  // From SIGCONT on, on a grid aligned to it.
  const autosaveTimeline = stats.operations.get("autosave")?.timeline;
  const recoveryAfterResumeMs = autosaveTimeline
    ? recoveryMs(
        latencyWindows(autosaveTimeline, {
          fromMs: plan.freezeToMs,
          toMs: plan.editUntilMs,
          stepMs: WINDOW_MS,
          kinds: ["ok"],
        }),
        { fromMs: plan.freezeToMs, limitMs: NORMAL_P99_MS },
      )
    : null;
  return {
    stats,
    buildId,
    figures: {
      label: options.label,
      env: options.extraEnv,
      phases,
      windows,
      autosaveStatuses: autosaveWindows.map((window) => statuses.counts("autosave", window.fromMs, window.toMs)),
      recoveryAfterResumeMs,
      operations,
      freeze,
      check,
      appLines,
      appLastErrors,
    },
  };
}

export const redisFreezeScenario: Scenario<RedisFreezeOptions> = {
  name: "redis-freeze",
  summary:
    "Redis frozen (SIGSTOP) under a population at browser timings: autosave p99 before/during/after; breaker vs none",
  usage: [
    "  --candidates N           simulated candidates (light client, browser timings)          500",
    "  --ramp S                 they arrive (join, start) evenly over S seconds                30",
    "  --warmup S               then answer this long before Redis freezes                    20",
    "  --freeze S               Redis frozen with SIGSTOP this long, then SIGCONT             20",
    "  --after S                then answer this long before the submits                      20",
    "  --submit-window S        every candidate presses Submit within S seconds               10",
    "  --edit-every S           mean seconds between two edits of one candidate               10",
    `  --workers N              app worker processes (scripts/start.mjs, one port)          ${availableParallelism()} (cores)`,
    "  --pool N                 database connections per worker process                      10",
    "  --compare true|false     a second pass with REDIS_BREAKER_DISABLED=true (the before)   true",
    "  --targets                fail the run on issue 17's target (autosave p99 ≤ 1 s while frozen)",
    "  --publish                copy the run's charts to docs/benchmarks/ (committed)",
    "  --build auto|always|never  next build when sources are newer than .next/BUILD_ID     auto",
  ].join("\n"),

  options(flags: Flags): RedisFreezeOptions {
    return {
      candidates: flags.number("candidates", 500, { min: 1, max: 20_000, isInteger: true }),
      rampSeconds: flags.number("ramp", 30, { min: 0, max: 3_600 }),
      warmupSeconds: flags.number("warmup", 20, { min: 1, max: 3_600 }),
      freezeSeconds: flags.number("freeze", 20, { min: 1, max: 3_600 }),
      afterSeconds: flags.number("after", 20, { min: 1, max: 3_600 }),
      submitWindowSeconds: flags.number("submit-window", 10, { min: 0.1, max: 600 }),
      editEverySeconds: flags.number("edit-every", 10, { min: 0.05, max: 3_600 }),
      workers: flags.number("workers", availableParallelism(), { min: 1, max: 64, isInteger: true }),
      poolMax: flags.number("pool", 10, { min: 1, max: 90, isInteger: true }),
      isCompared: flags.choice("compare", ["true", "false"] as const, "true") === "true",
      isTargetsChecked: flags.boolean("targets"),
      isPublished: flags.boolean("publish"),
      build: flags.choice("build", ["auto", "always", "never"] as const, "auto"),
    };
  },

  async run(options, signal) {
    const problems: string[] = [];
    const env0 = environment();
    const redis = await startPrivateRedis({ signal });
    const database = await createMigratedDatabase("freeze");

    const passes: { figures: PassFigures; stats: RunStats }[] = [];
    const main = await runPass({
      label: "breaker",
      extraEnv: {},
      run: options,
      redis,
      databaseUrl: database.url,
      buildId: null,
      signal,
    });
    if (!main) return { isOk: false };
    passes.push(main);
    if (options.isCompared) {
      const before = await runPass({
        label: "no breaker",
        extraEnv: { REDIS_BREAKER_DISABLED: "true" },
        run: options,
        redis,
        databaseUrl: database.url,
        buildId: main.buildId,
        signal,
      });
      if (!before) return { isOk: false };
      passes.push(before);
    }

    // Figures.
    const { lines, show } = figureLines();
    for (const { figures } of passes) {
      for (const operation of OPERATIONS) {
        const phases = figures.phases[operation];
        if (!phases) continue;
        show(
          `${figures.label.padEnd(10)} ${operation.padEnd(9)} ` +
            PHASES.map(
              (phase) =>
                `${phase} p50 ${ms(phases[phase].p50)} p99 ${ms(phases[phase].p99)} (${phases[phase].ok}/${phases[phase].count} ok)`,
            ).join(" | "),
        );
      }
      show(formatOperation(`${figures.label}: submit (click to done)`, figures.operations["submit (click to done)"]));
      show(
        `${figures.label.padEnd(10)} autosave back under ${NORMAL_P99_MS} ms with no error ` +
          `${figures.recoveryAfterResumeMs === null ? "not within the run" : `${(figures.recoveryAfterResumeMs / 1000).toFixed(0)} s after SIGCONT`}; ` +
          `app log lines: ${JSON.stringify(figures.appLines)}`,
      );
      show(`${figures.label.padEnd(10)} ${formatCheck(figures.check)}`);
    }

    const [breaker, noBreaker] = passes.map((pass) => pass.figures);
    for (const figures of [breaker, noBreaker]) {
      if (!figures) continue;
      if (!figures.check.isOk)
        problems.push(`[${figures.label}] the checker failed:\n${figures.check.samples.join("\n")}`);
    }
    if (breaker) {
      const faults = serverFaults(breaker.operations);
      if (faults.length) problems.push(`[breaker] server faults (5xx other than 503): ${faults.join(", ")}`);
      if (options.isTargetsChecked) {
        const missed = missedFreezeTargets(breaker);
        if (missed.length) problems.push(`issue 17's target missed: ${missed.join("; ")}`);
      }
    }
    if (noBreaker) {
      const faults = serverFaults(noBreaker.operations);
      if (faults.length) show(`[no breaker] server faults (5xx other than 503), for the record: ${faults.join(", ")}`);
    }

    const plan = freezePlan(options);
    const json = writeResults("redis-freeze", {
      scenario: "redis-freeze",
      environment: env0,
      options,
      targets: REDIS_FREEZE_TARGETS,
      plan,
      passes: passes.map((pass) => pass.figures),
      lines,
      problems,
    });
    const windowRows = (breaker?.windows.autosave ?? []).map((window, index) => {
      const row: (string | number)[] = [`${((window.fromMs - plan.freezeFromMs) / 1000).toFixed(0)} s`];
      for (const figures of passes.map((pass) => pass.figures)) {
        const other = figures.windows.autosave?.[index];
        const statuses = figures.autosaveStatuses[index] ?? {};
        row.push(
          other ? `${other.ok}/${other.count}` : "—",
          other ? ms(other.p50) : "—",
          other ? ms(other.p99) : "—",
          Object.entries(statuses)
            .filter(([status]) => status !== "200")
            .map(([status, count]) => `${status}×${count}`)
            .join(" ") || "—",
        );
      }
      return row;
    });
    const report = populationReport({
      scenario: "redis-freeze",
      title: `Redis frozen for ${options.freezeSeconds} s: ${options.candidates} candidates, ${options.workers} worker(s)`,
      isOk: problems.length === 0,
      lines,
      stats: Object.fromEntries(passes.map((pass) => [pass.figures.label, pass.stats])),
      operations: ["autosave", "heartbeat", "submit (click to done)"],
      events: [
        { atMs: plan.freezeFromMs, label: "SIGSTOP" },
        { atMs: plan.freezeToMs, label: "SIGCONT" },
        { atMs: plan.editUntilMs, label: "submits" },
      ],
      check: breaker?.check ?? null,
      jsonFile: json,
      environment: env0,
      extraSections: [
        {
          heading: "Autosave per 5 s window",
          paragraphs: [
            "By the time the requests were sent, windows aligned on the freeze's start (0 s = SIGSTOP). Per pass: answered / sent, p50 and p99 of the answered, and the other answers.",
          ],
          table: {
            columns: [
              "from",
              ...passes.flatMap((pass) => [
                `${pass.figures.label}: ok/sent`,
                `${pass.figures.label}: p50`,
                `${pass.figures.label}: p99`,
                `${pass.figures.label}: other answers`,
              ]),
            ],
            rows: windowRows,
          },
        },
      ],
    });
    return endRun({ json, report, isPublished: options.isPublished, problems });
  },
};
