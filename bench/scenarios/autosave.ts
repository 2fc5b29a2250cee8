// `npm run bench -- autosave` and `npm run bench -- baseline`: N simulated candidates, open loop, each
// joining with its token, starting its attempt, editing every ~S seconds (exponential think time) and
// autosaving debounced deltas with the browser's timings and retry discipline, heartbeating every 15 s.
//
// `autosave` measures the app (`next start`), then, in the same run, the same schedule against the
// baseline (bare node:http + pg, the same upsert SQL; no sessions, so its candidates are joined and
// started beforehand and send no heartbeats), and prints app/baseline ratios. The checker then reads
// every attempt back through the API and the database and compares it with the candidates' ledgers:
// every acknowledged edit must be there. `baseline` runs the baseline half alone.
import type { Flags } from "../lib/run/args";
import { startApp, type BuildMode } from "../lib/servers/app-server";
import { startBaseline } from "../lib/servers/baseline";
import { MAX_SOCKETS, measureBaselinePopulation } from "../lib/load/baseline-population";
import { formatCheck, type CheckResult } from "../lib/checking/checker";
import { createMigratedDatabase } from "../lib/servers/database";
import { createAgent } from "../lib/load/http-client";
import { say, shout } from "../lib/run/log";
import { RunStats } from "../lib/load/op-stats";
import { httpTransport, type Schedule } from "../lib/load/population";
import { formatOperation, measurePopulation, type PopulationMeasurement } from "../lib/load/population-run";
import { populationReport } from "../lib/reporting/population-report";
import { environment, figureLines, formatRatio, ratio, writeResults } from "../lib/reporting/report";
import type { Scenario } from "../lib/run/scenario";
import { enrollCandidates } from "../lib/candidates/seed";
import { simCandidatesFor } from "../lib/candidates/sim-candidate";
import { BROWSER_TIMINGS } from "../lib/candidates/transport";
import { appEnvironment, buildApp, checkRun, createBenchExam } from "../lib/run/stage";

export type AutosaveOptions = {
  candidates: number;
  rampSeconds: number;
  editEverySeconds: number;
  durationSeconds: number;
  heartbeatSeconds: number;
  poolMax: number;
  requestTimeoutMs: number;
  build: BuildMode;
};

/** Time after the last arrival before the window opens: the arrival burst settles. */
const SETTLE_MS = 3_000;
/** After the window: the candidates flush what they hold, retrying this long at most. */
const DRAIN_MS = 60_000;

const USAGE = [
  "  --candidates N           simulated candidates                                   1000",
  "  --ramp S                 they arrive (join, start) evenly over S seconds           20",
  "  --edit-every S           mean seconds between two edits of one candidate            10",
  "  --duration S             measured seconds, after every candidate arrived            60",
  "  --heartbeat-every S      heartbeat period (0: none; the browser's is 15)             15",
  "  --pool N                 database connections, app (DATABASE_POOL_MAX) and baseline  10",
  "  --request-timeout-ms MS  a request unanswered by then is a network error        20000",
  "  --build auto|always|never  next build when sources are newer than .next/BUILD_ID   auto",
].join("\n");

function readOptions(flags: Flags): AutosaveOptions {
  return {
    candidates: flags.number("candidates", 1_000, { min: 1, max: 50_000, isInteger: true }),
    rampSeconds: flags.number("ramp", 20, { min: 0, max: 3_600 }),
    editEverySeconds: flags.number("edit-every", 10, { min: 0.05, max: 3_600 }),
    durationSeconds: flags.number("duration", 60, { min: 1, max: 3_600 }),
    heartbeatSeconds: flags.number("heartbeat-every", 15, { min: 0, max: 600 }),
    poolMax: flags.number("pool", 10, { min: 1, max: 90, isInteger: true }),
    requestTimeoutMs: flags.number("request-timeout-ms", 20_000, { min: 100, max: 120_000, isInteger: true }),
    build: flags.choice("build", ["auto", "always", "never"] as const, "auto"),
  };
}

function schedule(options: AutosaveOptions): { schedule: Schedule; windowFromMs: number; windowToMs: number } {
  const rampMs = options.rampSeconds * 1_000;
  const windowFromMs = rampMs + SETTLE_MS;
  const windowToMs = windowFromMs + options.durationSeconds * 1_000;
  return {
    schedule: {
      arrivalSpreadMs: rampMs,
      editMeanMs: options.editEverySeconds * 1_000,
      editUntilMs: windowToMs,
      submitAtMs: null,
    },
    windowFromMs,
    windowToMs,
  };
}

async function runAutosave(
  options: AutosaveOptions,
  signal: AbortSignal,
  targets: { app: boolean },
): Promise<{ isOk: boolean }> {
  const problems: string[] = [];
  const env0 = environment();
  const database = await createMigratedDatabase("autosave");
  const env = appEnvironment({
    databaseUrl: database.url,
    redisUrl: "redis://127.0.0.1:6379",
    poolMax: options.poolMax,
  });
  const buildId = await buildApp({ mode: options.build, env, signal });
  if (signal.aborted) return { isOk: false };
  // The app is needed in both cases: the baseline's candidates are joined and started through it.
  const app = await startApp({ buildId, env, signal });
  const baseline = await startBaseline({ databaseUrl: database.url, poolMax: options.poolMax, signal });
  const exam = await createBenchExam({ port: app.port, adminToken: env.ADMIN_API_TOKEN, signal });
  const timings = {
    ...BROWSER_TIMINGS,
    heartbeatMs: options.heartbeatSeconds * 1_000,
    requestTimeoutMs: options.requestTimeoutMs,
  };
  const { schedule: plan, windowFromMs, windowToMs } = schedule(options);
  const measurements: PopulationMeasurement[] = [];
  const stats: Record<string, RunStats> = {};
  let check: CheckResult | null = null;

  if (targets.app) {
    const tokens = await enrollCandidates(exam.api, { examId: exam.examId, count: options.candidates });
    say(
      `app: ${options.candidates} candidates arrive over ${options.rampSeconds} s, edit every ~${options.editEverySeconds} s; measuring ${options.durationSeconds} s`,
    );
    const runStats = new RunStats();
    stats.app = runStats;
    const agent = createAgent(Math.min(options.candidates, MAX_SOCKETS));
    const candidates = simCandidatesFor(tokens, {
      examId: exam.examId,
      questions: exam.questions,
      transport: httpTransport(agent, app.port),
      stats: runStats,
      timings,
      giveUpAtMs: windowToMs + DRAIN_MS,
      signal,
    });
    app.child.resetLineCounts();
    measurements.push(
      await measurePopulation({
        target: "app",
        candidates,
        stats: runStats,
        schedule: plan,
        windowFromMs,
        windowToMs,
        cpu: { serverGroup: app.child.pid, databaseUrl: database.url },
        signal,
      }),
    );
    agent.destroy();
    const errorLines = app.child.lineCounts().error ?? 0;
    if (errorLines > 0)
      problems.push(
        `the app logged ${errorLines} error lines:\n${app.child
          .tail()
          .filter((line) => line.includes('"level":"error"'))
          .slice(-5)
          .join("\n")}`,
      );
    if (signal.aborted) return { isOk: false };
    check = await checkRun({
      port: app.port,
      databaseUrl: database.url,
      ledgers: candidates.map((candidate) => candidate.ledger),
      cookies: candidates.map((candidate) => candidate.sessionCookie),
      isSubmitExpected: false,
      signal,
    });
    if (!check.isOk) problems.push(`the checker failed:\n${check.samples.join("\n")}`);
  }

  // The baseline: the same schedule, candidates joined and started beforehand.
  exam.agent.destroy();
  const base = await measureBaselinePopulation({
    appPort: app.port,
    adminToken: env.ADMIN_API_TOKEN,
    baseline,
    databaseUrl: database.url,
    exam,
    candidates: options.candidates,
    schedule: plan,
    windowFromMs,
    windowToMs,
    giveUpAtMs: windowToMs + DRAIN_MS,
    timings,
    signal,
  });
  measurements.push(base.measurement);
  stats.baseline = base.stats;
  if (signal.aborted) return { isOk: false };

  // Figures.
  const { lines, show } = figureLines();
  const app0 = measurements.find((item) => item.target === "app");
  const base0 = measurements.find((item) => item.target === "baseline");
  for (const measurement of measurements) {
    for (const [operation, summary] of Object.entries(measurement.operations))
      show(formatOperation(`${operation} ${measurement.target}`, summary));
    if (measurement.cpuPerRequestMs)
      show(
        `cpu/req ${measurement.target}: server ${measurement.cpuPerRequestMs.server} ms, pg ${measurement.cpuPerRequestMs.postgres} ms; load ${measurement.loadAverage}`,
      );
  }
  const offered = base0?.offeredEditsPerSecond ?? app0?.offeredEditsPerSecond ?? 0;
  if (app0 && base0) {
    const a = app0.operations.autosave;
    const b = base0.operations.autosave;
    show(
      `autosave app/baseline: throughput ${formatRatio(ratio(a?.throughput ?? 0, b?.throughput ?? 0))}, p99 ${formatRatio(ratio(a?.latency.p99 ?? 0, b?.latency.p99 ?? 0))} ` +
        `(offered ≤ ${offered} edits/s by ${options.candidates} candidates; targets: throughput ≥ 0.60×, p99 ≤ 1.50×)`,
    );
  }
  if (check) show(formatCheck(check));
  for (const measurement of measurements) {
    const autosave = measurement.operations.autosave;
    if (measurement.target === "app" && autosave && autosave.unexpected > 0)
      problems.push(`app: ${autosave.unexpected} unexpected autosave answers`);
  }

  const results = {
    scenario: targets.app ? "autosave" : "baseline",
    environment: env0,
    options,
    measurements,
    check,
    lines,
    problems,
  };
  const json = writeResults(targets.app ? "autosave" : "baseline", results);
  const report = populationReport({
    scenario: targets.app ? "autosave" : "baseline",
    title: targets.app
      ? `Autosave: ${options.candidates} candidates, app against baseline`
      : `Baseline: ${options.candidates} candidates`,
    isOk: problems.length === 0,
    lines,
    stats,
    operations: ["autosave", "heartbeat", "join", "start"],
    events: [],
    check,
    jsonFile: json,
    environment: env0,
  });
  say(`results: ${json}; report: ${report}`);
  if (problems.length) shout(problems.join("\n"));
  return { isOk: problems.length === 0 };
}

export const autosaveScenario: Scenario<AutosaveOptions> = {
  name: "autosave",
  summary: "N candidates autosaving open loop (browser timings); app and baseline in the same run; checker",
  usage: USAGE,
  options: readOptions,
  run: (options, signal) => runAutosave(options, signal, { app: true }),
};

export const baselineScenario: Scenario<AutosaveOptions> = {
  name: "baseline",
  summary: "the autosave population against the bare node:http + pg server only: the physical limit",
  usage: USAGE,
  options: readOptions,
  run: (options, signal) => runAutosave(options, signal, { app: false }),
};
