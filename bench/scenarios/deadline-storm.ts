// `npm run bench -- deadline-storm`: every candidate presses Submit inside one short window, as at the
// end of a real exam, while the network drops a share of responses after the server processed the
// request (10 % by default, through the fault proxy). Each candidate first arrives, edits and autosaves
// for a while (open loop), then submits with the key and body it fixed at the first try, retrying
// dropped answers as the browser does. The checker then demands exactly one submission per candidate,
// holding every edit.
//
// In the same run, the baseline takes the same storm through its own proxy with the same drop rate.
import type { Flags } from "../lib/run/args";
import { startAppCluster } from "../lib/servers/app-cluster";
import { type BuildMode } from "../lib/servers/app-server";
import { startBaseline } from "../lib/servers/baseline";
import { MAX_SOCKETS, measureBaselinePopulation } from "../lib/load/baseline-population";
import { formatCheck } from "../lib/checking/checker";
import { createMigratedDatabase } from "../lib/servers/database";
import { startFaultProxy } from "../lib/faults/fault-proxy";
import { createAgent } from "../lib/load/http-client";
import { say, shout } from "../lib/run/log";
import { RunStats } from "../lib/load/op-stats";
import { httpTransport, type Schedule } from "../lib/load/population";
import { formatOperation, measurePopulation } from "../lib/load/population-run";
import { populationReport } from "../lib/reporting/population-report";
import { environment, figureLines, formatRatio, ratio, writeResults } from "../lib/reporting/report";
import type { Scenario } from "../lib/run/scenario";
import { enrollCandidates } from "../lib/candidates/seed";
import { simCandidatesFor } from "../lib/candidates/sim-candidate";
import { BROWSER_TIMINGS } from "../lib/candidates/transport";
import { appEnvironment, buildApp, checkRun, createBenchExam } from "../lib/run/stage";

export type DeadlineStormOptions = {
  candidates: number;
  instances: number;
  rampSeconds: number;
  editSeconds: number;
  editEverySeconds: number;
  windowSeconds: number;
  dropRate: number;
  poolMax: number;
  build: BuildMode;
};

/** After the window: how long candidates keep retrying a submit before the run gives up on them. */
const DRAIN_MS = 120_000;

/** Spreads n submits over the window by the golden ratio: even, yet not in candidate order. */
function spread(index: number, windowMs: number): number {
  return ((index * 0.618_033_988_75) % 1) * windowMs;
}

export const deadlineStormScenario: Scenario<DeadlineStormOptions> = {
  name: "deadline-storm",
  summary: "every candidate submits inside one window while 10 % of responses are dropped; one submission each",
  usage: [
    "  --candidates N           simulated candidates                                   1000",
    "  --instances N            app instances behind the proxy (round robin)              1",
    "  --ramp S                 they arrive (join, start) evenly over S seconds           20",
    "  --edit-for S             then edit and autosave for S seconds                      20",
    "  --edit-every S           mean seconds between two edits of one candidate             5",
    "  --window S               every candidate presses Submit within these S seconds     10",
    "  --drop R                 share of responses dropped after the server processed it  0.1",
    "  --pool N                 database connections per instance and for the baseline   10",
    "  --build auto|always|never  next build when sources are newer than .next/BUILD_ID  auto",
  ].join("\n"),

  options(flags: Flags): DeadlineStormOptions {
    return {
      candidates: flags.number("candidates", 1_000, { min: 1, max: 50_000, isInteger: true }),
      instances: flags.number("instances", 1, { min: 1, max: 8, isInteger: true }),
      rampSeconds: flags.number("ramp", 20, { min: 0, max: 3_600 }),
      editSeconds: flags.number("edit-for", 20, { min: 0, max: 3_600 }),
      editEverySeconds: flags.number("edit-every", 5, { min: 0.05, max: 3_600 }),
      windowSeconds: flags.number("window", 10, { min: 0.1, max: 3_600 }),
      dropRate: flags.number("drop", 0.1, { min: 0, max: 0.9 }),
      poolMax: flags.number("pool", 10, { min: 1, max: 90, isInteger: true }),
      build: flags.choice("build", ["auto", "always", "never"] as const, "auto"),
    };
  },

  async run(options, signal) {
    const problems: string[] = [];
    const env0 = environment();
    const database = await createMigratedDatabase("storm");
    const env = appEnvironment({
      databaseUrl: database.url,
      redisUrl: "redis://127.0.0.1:6379",
      poolMax: options.poolMax,
      instances: options.instances,
    });
    const buildId = await buildApp({ mode: options.build, env, signal });
    if (signal.aborted) return { isOk: false };
    const cluster = await startAppCluster({ count: options.instances, buildId, env, signal });
    const direct = cluster.instances[0]!.port;
    const proxy = await startFaultProxy({ upstreams: cluster.ports(), faults: { dropResponseRate: options.dropRate } });
    // Prepared, as the app's submit statements are: like for like.
    const baseline = await startBaseline({
      databaseUrl: database.url,
      poolMax: options.poolMax,
      signal,
      isPrepared: true,
    });
    const baselineProxy = await startFaultProxy({
      upstreams: [baseline.port],
      faults: { dropResponseRate: options.dropRate },
    });
    const exam = await createBenchExam({ port: direct, adminToken: env.ADMIN_API_TOKEN, signal });
    const tokens = await enrollCandidates(exam.api, { examId: exam.examId, count: options.candidates });

    const rampMs = options.rampSeconds * 1_000;
    const stormAtMs = rampMs + options.editSeconds * 1_000;
    const windowMs = options.windowSeconds * 1_000;
    const plan: Schedule = {
      arrivalSpreadMs: rampMs,
      editMeanMs: options.editEverySeconds * 1_000,
      editUntilMs: stormAtMs,
      submitAtMs: (index) => stormAtMs + spread(index, windowMs),
    };
    // The figures cover the storm: from the first Submit until the last retry could have gone out.
    const windowFromMs = stormAtMs;
    const windowToMs = stormAtMs + windowMs + DRAIN_MS;

    say(
      `app: ${options.candidates} candidates over ${options.instances} instance(s); submits from ${stormAtMs / 1000} s within ${options.windowSeconds} s; ${options.dropRate * 100} % of responses dropped`,
    );
    const stats = new RunStats();
    const agent = createAgent(Math.min(options.candidates, MAX_SOCKETS));
    const candidates = simCandidatesFor(tokens, {
      examId: exam.examId,
      questions: exam.questions,
      transport: httpTransport(agent, proxy.port),
      stats,
      timings: BROWSER_TIMINGS,
      giveUpAtMs: windowToMs,
      signal,
    });
    const app = await measurePopulation({
      target: "app",
      candidates,
      stats,
      schedule: plan,
      windowFromMs,
      windowToMs,
      signal,
    });
    agent.destroy();
    const proxyStats = proxy.stats();
    if (signal.aborted) return { isOk: false };
    const check = await checkRun({
      port: direct,
      databaseUrl: database.url,
      ledgers: candidates.map((candidate) => candidate.ledger),
      cookies: candidates.map((candidate) => candidate.sessionCookie),
      isSubmitExpected: true,
      signal,
    });
    if (!check.isOk) problems.push(`the checker failed:\n${check.samples.join("\n")}`);
    for (const instance of cluster.instances) {
      const errors = cluster.lineCounts(instance.index).error ?? 0;
      if (errors > 0) problems.push(`app instance ${instance.index} logged ${errors} error lines`);
    }

    exam.agent.destroy();
    const base = await measureBaselinePopulation({
      appPort: direct,
      adminToken: env.ADMIN_API_TOKEN,
      baseline,
      databaseUrl: database.url,
      exam,
      candidates: options.candidates,
      schedule: plan,
      windowFromMs,
      windowToMs,
      giveUpAtMs: windowToMs,
      timings: BROWSER_TIMINGS,
      transport: (baselineAgent) => httpTransport(baselineAgent, baselineProxy.port),
      signal,
    });
    if (signal.aborted) return { isOk: false };

    const { lines, show } = figureLines();
    for (const measurement of [app, base.measurement]) {
      for (const operation of ["submit", "submit (click to done)", "autosave"]) {
        if (measurement.operations[operation])
          show(formatOperation(`${operation} ${measurement.target}`, measurement.operations[operation]));
      }
    }
    const done = app.operations["submit (click to done)"];
    const baseDone = base.measurement.operations["submit (click to done)"];
    show(
      `storm: ${check.submitted.byCandidate}/${options.candidates} submitted; click→done p99 ${done?.latency.p99 ?? 0} ms (${formatRatio(ratio(done?.latency.p99 ?? 0, baseDone?.latency.p99 ?? 0))} baseline); ` +
        `submit requests p99 ${formatRatio(ratio(app.operations.submit?.latency.p99 ?? 0, base.measurement.operations.submit?.latency.p99 ?? 0))} baseline; ` +
        `proxy: ${proxyStats.requests} responses, ${proxyStats.responsesDropped} dropped after processing`,
    );
    show(formatCheck(check));

    const json = writeResults("deadline-storm", {
      scenario: "deadline-storm",
      environment: env0,
      options,
      app,
      baseline: base.measurement,
      proxy: proxyStats,
      check,
      lines,
      problems,
    });
    const report = populationReport({
      scenario: "deadline-storm",
      title: `Deadline storm: ${options.candidates} submits in ${options.windowSeconds} s, ${options.dropRate * 100} % of responses dropped`,
      isOk: problems.length === 0,
      lines,
      stats: { app: stats, baseline: base.stats },
      operations: ["submit", "submit (click to done)", "autosave"],
      events: [
        { atMs: stormAtMs, label: "storm begins" },
        { atMs: stormAtMs + windowMs, label: "last Submit press" },
      ],
      check,
      jsonFile: json,
      environment: env0,
    });
    say(`results: ${json}; report: ${report}`);
    if (problems.length) shout(problems.join("\n"));
    return { isOk: problems.length === 0 };
  },
};
