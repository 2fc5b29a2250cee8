// `npm run bench -- chaos`: autosave and submit through faults on purpose, Jepsen-style.
//
// Everything runs privately so it can be broken: a PostgreSQL cluster of this run's own, a Redis of its
// own, several app instances (`next start`) behind the fault proxy's round robin. Candidates run the
// browser's real sync engine over IndexedDB (fake-indexeddb in this process; `--client sim` for the
// lighter protocol client). While they arrive, edit and autosave, the chaos schedule kills app
// instances with SIGKILL and restarts them, hangs Redis (SIGSTOP) and releases it, shuts Postgres down
// immediately (crash-like) and starts it again, and the proxy drops responses after the server
// processed them, resets connections and adds latency. Some candidates crash their tab (no flush) and
// reopen it from IndexedDB; some open the exam on a second device and edit on both. The faults end
// before the submit window; every candidate then submits. The checker reads everything back and fails
// the run on any lost answer, stale overwrite, phantom or second submission, or a candidate not
// submitted.
//
// The baseline runs the same arrival and edit schedule (protocol client, no faults) in the same run.
import { UsageError, type Flags } from "../lib/run/args";
import { startAppCluster, type AppCluster } from "../lib/servers/app-cluster";
import { type BuildMode } from "../lib/servers/app-server";
import { startBaseline } from "../lib/servers/baseline";
import { MAX_SOCKETS, measureBaselinePopulation } from "../lib/load/baseline-population";
import { chaosCycles, cycledChaosPlan, describeAction, runChaos, type ChaosEvent } from "../lib/faults/chaos";
import { formatCheck } from "../lib/checking/checker";
import { createMigratedDatabase } from "../lib/servers/database";
import { EngineCandidate } from "../lib/candidates/engine-candidate";
import { startFaultProxy } from "../lib/faults/fault-proxy";
import { createAgent } from "../lib/load/http-client";
import type { CandidateLedger } from "../lib/candidates/ledger";
import { say, shout, sleep } from "../lib/run/log";
import { RunStats } from "../lib/load/op-stats";
import { arrivalAt, httpTransport, runPopulation, sleepUntil, thinkTime, type Schedule } from "../lib/load/population";
import { formatOperation, type PopulationMeasurement } from "../lib/load/population-run";
import { populationReport } from "../lib/reporting/population-report";
import { startPrivatePostgres, type PrivatePostgres } from "../lib/faults/private-postgres";
import { startPrivateRedis, type PrivateRedis } from "../lib/faults/private-redis";
import { environment, figureLines, formatRatio, ratio, writeResults } from "../lib/reporting/report";
import type { Scenario } from "../lib/run/scenario";
import { enrollCandidates } from "../lib/candidates/seed";
import { simCandidatesFor } from "../lib/candidates/sim-candidate";
import { BROWSER_TIMINGS, type Transport } from "../lib/candidates/transport";
import { appEnvironment, buildApp, checkRun, createBenchExam } from "../lib/run/stage";

export type ChaosOptions = {
  candidates: number;
  client: "engine" | "sim";
  instances: number;
  rampSeconds: number;
  durationSeconds: number;
  /** The fault plan repeats every ~this many seconds over the duration (a soak); the duration itself by default. */
  faultCycleSeconds: number;
  editEverySeconds: number;
  windowSeconds: number;
  crashShare: number;
  secondDeviceShare: number;
  lateEditShare: number;
  poolMax: number;
  isBaselineMeasured: boolean;
  build: BuildMode;
  /**
   * A running deployment to test instead of private servers (e.g. docker-compose.scale.yml's balancer):
   * only the network faults run (the proxy sits in front of it), the checker reads `databaseUrl`.
   */
  target: { port: number; databaseUrl: string; adminToken: string } | null;
};

/** `--target http://127.0.0.1:PORT` (the fault proxy only connects to loopback ports). */
export function parseTarget(url: string): number {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--target must be a URL like http://127.0.0.1:3000, got "${url}"`);
  }
  const port = Number(parsed.port || 80);
  if (parsed.protocol !== "http:" || !["127.0.0.1", "localhost"].includes(parsed.hostname) || parsed.pathname !== "/")
    throw new UsageError(
      `--target must be plain http on this machine (http://127.0.0.1:PORT; publish the balancer's port), got "${url}"`,
    );
  return port;
}

/** After the submit window: how long candidates may keep retrying before the run gives up on them. */
const DRAIN_MS = 120_000;
/** A crashed tab stays closed this long (uniform) before it is opened again. */
const CRASH_DOWN_MS = { min: 1_000, max: 5_000 };
/** How long the fault schedule may still run once every candidate has finished. */
const CHAOS_STEP_GRACE_MS = 120_000;
/** A device that is not the one submitting must have sent everything within this long. */
const DEVICE_DRAIN_MS = 60_000;
/** How long a stale tab's edit after the submit may take to reach the server (it is answered 409). */
const LATE_EDIT_DRAIN_MS = 10_000;

type Tally = { crashes: number; reopens: number; secondDevices: number; drainsFailed: number; lateEdits: number };

function uniform(min: number, max: number): number {
  return min + Math.random() * (max - min);
}

/**
 * One engine candidate's life: arrive, edit open loop on its device(s), maybe crash and reopen a tab,
 * maybe add a second device, then (every device drained but the submitting one) submit.
 */
async function liveEngine(options: {
  candidate: EngineCandidate;
  index: number;
  count: number;
  schedule: Schedule & { submitAtMs: (index: number, count: number) => number };
  stats: RunStats;
  crashAtMs: number | null;
  secondDeviceAtMs: number | null;
  /** With a second device: keep the first tab open through the submit and edit on it afterwards. */
  isLateEditor: boolean;
  tally: Tally;
  signal: AbortSignal;
}): Promise<void> {
  const { candidate, stats, schedule, signal, tally } = options;
  const until = (atMs: number): Promise<void> => sleepUntil(stats, atMs, signal);
  await until(arrivalAt(schedule, options.index, options.count));
  if (signal.aborted || (await candidate.addDevice()) === null) return;
  let crashAt = options.crashAtMs;
  let secondAt = options.secondDeviceAtMs;
  let reopenAt: number | null = null;
  const submitAt = schedule.submitAtMs(options.index, options.count);
  const stopEditingAt = Math.min(schedule.editUntilMs, submitAt);
  for (
    let due = stats.now() + thinkTime(schedule.editMeanMs);
    due < stopEditingAt && !signal.aborted;
    due += thinkTime(schedule.editMeanMs)
  ) {
    await until(due);
    const now = stats.now();
    if (crashAt !== null && now >= crashAt) {
      candidate.crash(0);
      tally.crashes += 1;
      crashAt = null;
      reopenAt = now + uniform(CRASH_DOWN_MS.min, CRASH_DOWN_MS.max);
    }
    if (reopenAt !== null && now >= reopenAt) {
      await candidate.reopen(0);
      tally.reopens += 1;
      reopenAt = null;
    }
    if (secondAt !== null && now >= secondAt) {
      secondAt = null;
      if ((await candidate.addDevice()) !== null) tally.secondDevices += 1;
    }
    // Edits go to an open device: the second one half of the time once it exists, and always while
    // the first one's tab is closed; with no open device the candidate waits.
    const last = candidate.deviceCount - 1;
    const isFirstClosed = reopenAt !== null;
    if (last > 0 && (isFirstClosed || Math.random() < 0.5)) await candidate.edit(last);
    else if (!isFirstClosed) await candidate.edit(0);
  }
  if (reopenAt !== null) {
    await candidate.reopen(0);
    tally.reopens += 1;
  }
  if (signal.aborted) return;
  await until(submitAt);
  // The candidate finishes on the last device opened; the others have sent everything first.
  const submitting = candidate.deviceCount - 1;
  const staleTab = options.isLateEditor && submitting > 0 ? 0 : null;
  for (let device = 0; device < submitting; device += 1) {
    if (!(await candidate.drain(device, DEVICE_DRAIN_MS))) tally.drainsFailed += 1;
    if (device !== staleTab) candidate.crash(device);
  }
  await candidate.submit(submitting);
  // A tab left open on the other device has not heard of the submit yet: one more edit there must end
  // up as a late answer, and the submitted paper must not change.
  if (staleTab !== null && candidate.ledger.submitAnswers.length > 0 && (await candidate.lateEdit(staleTab))) {
    tally.lateEdits += 1;
    await candidate.drain(staleTab, LATE_EDIT_DRAIN_MS);
  }
  candidate.close();
}

export const chaosScenario: Scenario<ChaosOptions> = {
  name: "chaos",
  summary: "autosave + submit through killed instances, hung Redis, restarted Postgres and a lossy network; checker",
  usage: [
    "  --candidates N           simulated candidates                                     200",
    "  --client engine|sim      the browser's sync engine over IndexedDB, or the light client  engine",
    "  --instances N            app instances behind the proxy (round robin)               3",
    "  --ramp S                 they arrive (join, start) evenly over S seconds             10",
    "  --duration S             edit and autosave for S seconds, faults during them          60",
    "  --fault-cycle S          repeat the fault plan every ~S seconds of the duration (a soak)  the duration",
    "  --edit-every S           mean seconds between two edits of one candidate              3",
    "  --window S               then every candidate presses Submit within S seconds        10",
    "  --crash-share R          share of candidates whose tab crashes once and reopens     0.2",
    "  --second-device-share R  share of candidates who open a second device               0.1",
    "  --late-edit-share R      share of those whose first tab stays open and edits after the submit  0.5",
    "  --pool N                 database connections per instance and for the baseline     10",
    "  --baseline true|false    also run the baseline on the same schedule (no faults)     true",
    "  --build auto|always|never  next build when sources are newer than .next/BUILD_ID    auto",
    "  --target URL             test a running deployment (http://127.0.0.1:PORT) instead: network faults only, no baseline",
    "  --database-url URL       with --target: its database, for the checker",
    "  --admin-token T          with --target: its ADMIN_API_TOKEN                 $ADMIN_API_TOKEN",
  ].join("\n"),

  options(flags: Flags): ChaosOptions {
    const durationSeconds = flags.number("duration", 60, { min: 10, max: 14_400 });
    return {
      candidates: flags.number("candidates", 200, { min: 1, max: 20_000, isInteger: true }),
      client: flags.choice("client", ["engine", "sim"] as const, "engine"),
      instances: flags.number("instances", 3, { min: 1, max: 8, isInteger: true }),
      rampSeconds: flags.number("ramp", 10, { min: 0, max: 3_600 }),
      durationSeconds,
      // Shorter than 20 s, a cycle's killed instance and hung Redis would overlap the next cycle's.
      faultCycleSeconds: flags.number("fault-cycle", durationSeconds, {
        min: Math.min(20, durationSeconds),
        max: 14_400,
      }),
      editEverySeconds: flags.number("edit-every", 3, { min: 0.05, max: 3_600 }),
      windowSeconds: flags.number("window", 10, { min: 0.1, max: 3_600 }),
      crashShare: flags.number("crash-share", 0.2, { min: 0, max: 1 }),
      secondDeviceShare: flags.number("second-device-share", 0.1, { min: 0, max: 1 }),
      lateEditShare: flags.number("late-edit-share", 0.5, { min: 0, max: 1 }),
      poolMax: flags.number("pool", 10, { min: 1, max: 50, isInteger: true }),
      isBaselineMeasured: flags.choice("baseline", ["true", "false"] as const, "true") === "true",
      build: flags.choice("build", ["auto", "always", "never"] as const, "auto"),
      target: readTarget(flags),
    };
  },

  async run(options, signal) {
    const problems: string[] = [];
    const env0 = environment();

    // Private services this run may break, or a deployment that runs elsewhere (--target).
    const stack = options.target ? externalStack(options.target) : await privateStack(options, signal);
    if (!stack) return { isOk: false };
    const { postgres, redis, cluster, database, env, firstUp } = stack;
    const proxy = await startFaultProxy({ upstreams: stack.upstreams });
    const exam = await createBenchExam({ port: firstUp(), adminToken: env.ADMIN_API_TOKEN, signal });
    const tokens = await enrollCandidates(exam.api, { examId: exam.examId, count: options.candidates });

    const rampMs = options.rampSeconds * 1_000;
    const durationMs = options.durationSeconds * 1_000;
    const windowMs = options.windowSeconds * 1_000;
    const submitFromMs = rampMs + durationMs;
    const schedule = {
      arrivalSpreadMs: rampMs,
      editMeanMs: options.editEverySeconds * 1_000,
      editUntilMs: submitFromMs,
      submitAtMs: (index: number) => submitFromMs + ((index * 0.618_033_988_75) % 1) * windowMs,
    };
    const giveUpAtMs = submitFromMs + windowMs + DRAIN_MS;

    const stats = new RunStats();
    const agent = createAgent(Math.min(options.candidates * 2, MAX_SOCKETS));
    const transport: Transport = httpTransport(agent, proxy.port);
    const tally: Tally = { crashes: 0, reopens: 0, secondDevices: 0, drainsFailed: 0, lateEdits: 0 };
    const chaosEvents: (ChaosEvent & { runAtMs: number })[] = [];
    // The faults run over the editing period, after the arrivals: every fault is cleared before the submits.
    // Against a deployment elsewhere, only the network faults: its processes are not this run's to kill.
    const cycles = chaosCycles(durationMs, options.faultCycleSeconds * 1_000);
    const plan = cycledChaosPlan(durationMs, options.faultCycleSeconds * 1_000, options.instances).filter(
      (step) => !options.target || step.action.kind === "set-faults",
    );
    say(
      `chaos: ${options.candidates} ${options.client} candidates, ${postgres && redis ? `${options.instances} instances, private Postgres :${postgres.port} and Redis :${redis.port}` : `the deployment on 127.0.0.1:${firstUp()}`}; ` +
        `faults from ${rampMs / 1000} s for ${options.durationSeconds} s${cycles > 1 ? ` in ${cycles} cycles, the first` : ""}: ` +
        plan
          .slice(0, plan.length / cycles)
          .map((step) => `${(step.atMs / 1000).toFixed(0)} s ${describeAction(step.action)}`)
          .join(", "),
    );
    stats.startWindow();
    const chaosRun = sleep(rampMs, signal).then(() => {
      const offset = stats.now();
      return runChaos({
        plan,
        cluster,
        redis,
        postgres,
        proxy,
        signal,
        onEvent: (event) => chaosEvents.push({ ...event, runAtMs: offset + event.atMs }),
      });
    });

    let ledgers: CandidateLedger[];
    let cookies: (string | null)[];
    if (options.client === "engine") {
      const candidates = tokens.map(
        (token, index) =>
          new EngineCandidate({
            index,
            email: token.email,
            joinToken: token.joinToken,
            examId: exam.examId,
            questions: exam.questions,
            transport,
            stats,
            giveUpAtMs,
            signal,
          }),
      );
      await Promise.all(
        candidates.map((candidate, index) =>
          liveEngine({
            candidate,
            index,
            count: candidates.length,
            schedule,
            stats,
            crashAtMs: Math.random() < options.crashShare ? uniform(rampMs, submitFromMs - CRASH_DOWN_MS.max) : null,
            secondDeviceAtMs: Math.random() < options.secondDeviceShare ? uniform(rampMs, submitFromMs - 5_000) : null,
            isLateEditor: Math.random() < options.lateEditShare,
            tally,
            signal,
          }),
        ),
      );
      ledgers = candidates.map((candidate) => candidate.ledger);
      cookies = candidates.map((candidate) => candidate.cookie);
      await Promise.all(candidates.map((candidate) => candidate.dispose()));
    } else {
      const candidates = simCandidatesFor(tokens, {
        examId: exam.examId,
        questions: exam.questions,
        transport,
        stats,
        timings: BROWSER_TIMINGS,
        giveUpAtMs,
        signal,
      });
      await runPopulation(candidates, schedule, stats, signal);
      ledgers = candidates.map((candidate) => candidate.ledger);
      cookies = candidates.map((candidate) => candidate.sessionCookie);
    }
    stats.endWindow();
    // The schedule ended long before the submits; a step still running now is stuck, and says so.
    const events = await Promise.race([chaosRun, sleep(CHAOS_STEP_GRACE_MS, signal).then(() => null)]);
    if (events === null)
      problems.push(
        `the fault schedule had not finished ${CHAOS_STEP_GRACE_MS / 1000} s after the candidates did (a step hung)`,
      );
    agent.destroy();
    const proxyStats = proxy.stats();
    if (signal.aborted) return { isOk: false };

    // Whatever the schedule did, every instance must be up again for the reading.
    for (const instance of cluster?.instances ?? [])
      if (!cluster!.isUp(instance.index)) await cluster!.restart(instance.index);
    const check = await checkRun({
      port: firstUp(),
      databaseUrl: database.url,
      ledgers,
      cookies,
      isSubmitExpected: true,
      signal,
    });
    if (!check.isOk) problems.push(`the checker failed:\n${check.samples.join("\n")}`);
    const failedSteps = (events ?? []).filter((event) => !event.ok);
    if (failedSteps.length)
      problems.push(
        `fault steps failed: ${failedSteps.map((event) => `${describeAction(event.action)}: ${event.error}`).join("; ")}`,
      );
    if (tally.drainsFailed)
      problems.push(
        `${tally.drainsFailed} devices did not send everything within ${DEVICE_DRAIN_MS / 1000} s after the faults ended`,
      );

    // The baseline: the same arrivals and edits, protocol client, no faults.
    let base: { measurement: PopulationMeasurement; stats: RunStats } | null = null;
    if (options.isBaselineMeasured && !options.target) {
      const baseline = await startBaseline({ databaseUrl: database.url, poolMax: options.poolMax, signal });
      base = await measureBaselinePopulation({
        appPort: firstUp(),
        adminToken: env.ADMIN_API_TOKEN,
        baseline,
        databaseUrl: database.url,
        exam,
        candidates: options.candidates,
        schedule: { ...schedule, submitAtMs: null },
        windowFromMs: 0,
        windowToMs: submitFromMs,
        giveUpAtMs: submitFromMs + DRAIN_MS,
        timings: BROWSER_TIMINGS,
        signal,
      });
    }
    exam.agent.destroy();
    if (signal.aborted) return { isOk: false };

    const { lines, show } = figureLines();
    const windowMsDone = stats.windowMs();
    const operations = ["autosave", "submit", "submit (click to done)", "heartbeat", "merge", "join", "start"];
    for (const operation of operations) {
      const summary = stats.operations.get(operation)?.summary(windowMsDone);
      if (summary) show(formatOperation(`${operation} app`, summary));
    }
    const baseAutosave = base?.measurement.operations.autosave;
    if (baseAutosave) show(formatOperation("autosave baseline", baseAutosave));
    const appAutosave = stats.operations.get("autosave")?.summary(windowMsDone);
    if (appAutosave && baseAutosave) {
      show(
        `autosave app (through faults) / baseline (none): throughput ${formatRatio(ratio(appAutosave.throughput, baseAutosave.throughput))}, p99 ${formatRatio(ratio(appAutosave.latency.p99, baseAutosave.latency.p99))}`,
      );
    }
    const survived =
      `survived: ${check.edits} edits, ${check.submitted.byCandidate} submits, ${chaosEvents.length} scheduled faults (${chaosEvents.map((event) => describeAction(event.action)).join(", ")}), ` +
      `${proxyStats.responsesDropped} responses dropped after processing, ${proxyStats.resets} connections reset, ${proxyStats.upstreamUnavailable} connections refused by every instance, ` +
      `${tally.crashes} tab crashes (${tally.reopens} reopened from IndexedDB), ${tally.secondDevices} second devices, ${tally.lateEdits} edits on a stale tab after the submit`;
    show(survived);
    show(formatCheck(check));

    // What the instances logged at error level (expected during outages: 503s are logged), for the record.
    const serverErrors = (cluster?.instances ?? []).map((instance) => ({
      instance: instance.index,
      counts: cluster!.lineCounts(instance.index),
      lastErrors: instance.child
        .tail()
        .filter((line) => line.includes('"level":"error"'))
        .slice(-10),
    }));
    const internal = [...stats.operations.values()].reduce((sum, op) => sum + op.statuses.get("500 INTERNAL"), 0);
    if (internal > 0)
      show(
        `!! ${internal} answers were 500 INTERNAL (a server fault that is not an outage); see serverErrors in the JSON`,
      );
    const json = writeResults("chaos", {
      scenario: "chaos",
      environment: env0,
      options,
      plan,
      events: chaosEvents,
      proxy: proxyStats,
      tally,
      check,
      baseline: base?.measurement ?? null,
      serverErrors,
      lines,
      problems,
    });
    const report = populationReport({
      scenario: "chaos",
      title: `Chaos: ${options.candidates} candidates (${options.client}), ${options.instances} instances`,
      isOk: problems.length === 0,
      lines,
      stats: base ? { app: stats, baseline: base.stats } : { app: stats },
      operations: ["autosave", "submit", "submit (click to done)", "heartbeat"],
      events: [
        ...chaosEvents.map((event) => ({
          atMs: event.runAtMs,
          label: describeAction(event.action).replace(/ \{.*$/, ""),
        })),
        { atMs: submitFromMs, label: "submits" },
      ],
      check,
      jsonFile: json,
      environment: env0,
      paragraphs: [survived],
      extraSections: [
        {
          heading: "Faults",
          table: {
            columns: ["at (s)", "fault", "took (ms)", "ok"],
            rows: chaosEvents.map((event) => [
              (event.runAtMs / 1000).toFixed(1),
              describeAction(event.action),
              event.tookMs,
              event.ok ? "yes" : `no: ${event.error ?? ""}`,
            ]),
          },
        },
      ],
    });
    say(`results: ${json}; report: ${report}`);
    if (problems.length) shout(problems.join("\n"));
    return { isOk: problems.length === 0 };
  },
};

function readTarget(flags: Flags): ChaosOptions["target"] {
  const url = flags.string("target", null);
  const databaseUrl = flags.string("database-url", null);
  const adminToken = flags.string("admin-token", process.env.ADMIN_API_TOKEN ?? null);
  if (url === null) {
    if (databaseUrl !== null) throw new UsageError("--database-url goes with --target");
    return null;
  }
  if (databaseUrl === null)
    throw new UsageError("--target needs --database-url (the checker reads the attempts there)");
  if (!adminToken) throw new UsageError("--target needs --admin-token or ADMIN_API_TOKEN (to create the exam)");
  return { port: parseTarget(url), databaseUrl, adminToken };
}

type Stack = {
  postgres?: PrivatePostgres;
  redis?: PrivateRedis;
  cluster?: AppCluster;
  database: { url: string };
  env: { ADMIN_API_TOKEN: string };
  upstreams: number[];
  firstUp(): number;
};

/** A deployment that runs elsewhere: the proxy goes in front of its port; nothing of it is started or stopped. */
function externalStack(target: NonNullable<ChaosOptions["target"]>): Stack {
  say(`chaos: against the deployment on 127.0.0.1:${target.port} (network faults only; no baseline)`);
  return {
    database: { url: target.databaseUrl },
    env: { ADMIN_API_TOKEN: target.adminToken },
    upstreams: [target.port],
    firstUp: () => target.port,
  };
}

/** This run's own PostgreSQL, Redis and app instances, which the fault schedule may break. */
async function privateStack(options: ChaosOptions, signal: AbortSignal): Promise<Stack | null> {
  const postgres = await startPrivatePostgres({ signal });
  const redis = await startPrivateRedis({ signal });
  const database = await createMigratedDatabase("chaos", { adminUrl: postgres.adminUrl });
  const env = appEnvironment({
    databaseUrl: database.url,
    redisUrl: redis.url,
    poolMax: options.poolMax,
    instances: options.instances,
  });
  const buildId = await buildApp({ mode: options.build, env, signal });
  if (signal.aborted) return null;
  const cluster = await startAppCluster({ count: options.instances, buildId, env, signal });
  return {
    postgres,
    redis,
    cluster,
    database,
    env,
    upstreams: cluster.ports(),
    firstUp: () => (cluster.instances.find((instance) => cluster.isUp(instance.index)) ?? cluster.instances[0]!).port,
  };
}
