// `npm run bench -- sync`: the sync core's autosave and submit at N concurrent clients, against the real
// app as a production server and, in the same run, against a bare node:http + pg server doing the same
// SQL (the physical limit of this box for that work). Every figure that matters is a ratio of the two.
//
// 1. A private database, migrated; the app built if needed and started with `next start`; the baseline
//    started on the same database.
// 2. Seeding through the real API: one exam of 20 questions; candidates enrolled, joined (cookie kept),
//    started, their papers filled once. Each target gets its own candidates.
// 3. Autosave, closed loop: each client is a device rotating over its own candidates, sending deltas
//    of 1–3 answers with increasing Lamport versions; each attempt is paced below the app's per-attempt
//    rate limit, so the figures are the server's and not the limiter's (429s are counted apart).
// 4. Submit, closed loop: every request submits a different attempt with its own Idempotency-Key and a
//    final delta of one answer; a client that runs out of attempts stops.
// 5. One line per measurement, app/baseline ratios, and the whole run in bench/results/sync-<time>.json.
import { randomInt, randomUUID } from "node:crypto";
import type { Agent } from "node:http";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";

import pg from "pg";

import { answersDigest } from "../../lib/shared/digest";
import type { Flags } from "../lib/run/args";
import { currentBuildId, ensureBuild, startApp, type BuildMode } from "../lib/servers/app-server";
import { describeLimit, readAutosaveLimit } from "../lib/servers/app-limits";
import { startBaseline } from "../lib/servers/baseline";
import { startCpuProbe, type CpuProbe, type CpuUsage } from "../lib/load/cpu";
import { checkpoint, createMigratedDatabase } from "../lib/servers/database";
import { pickQuestions, randomValue, type BenchQuestion } from "../lib/candidates/exam";
import { createAgent, outcomeKey, send, type HttpResult } from "../lib/load/http-client";
import { monotonicUs, printWindowProfiles, profileDirectory } from "../lib/reporting/profiles";
import { runClosedLoop, type LoadResult, type Operation, type Outcome } from "../lib/load/load";
import { say, shout, sleep } from "../lib/run/log";
import type { ManagedChild } from "../lib/servers/processes";
import { environment, formatMeasurement, formatRatio, ratio, writeResults } from "../lib/reporting/report";
import type { Scenario } from "../lib/run/scenario";
import { appEnvironment } from "../lib/run/stage";
import { Api, createExam, seedCandidates, type SeededCandidate } from "../lib/candidates/seed";
import { contextHookArgs, WORKER_SETUP_USAGE, workerSetupFlags, type WorkerSetup } from "../lib/servers/worker-setup";

export type SyncOptions = WorkerSetup & {
  clients: number;
  durationSeconds: number;
  warmupSeconds: number;
  submitWarmupSeconds: number;
  attemptsPerClient: number;
  submitsPerClient: number;
  /** null: derived from the app's per-attempt autosave limit. */
  paceMs: number | null;
  poolMax: number;
  seedConcurrency: number;
  requestTimeoutMs: number;
  build: BuildMode;
  /** Which measurements to run; `both` is the full scenario. */
  only: "autosave" | "submit" | "both";
  /** Run the app with --cpu-prof and summarise its profile per measured window. */
  profile: boolean;
  /** Also measure a constant JSON answer on both servers: the framework's floor on this box. */
  floor: boolean;
  /** The baseline prepares its autosave statement per connection, as the app does. */
  baselinePrepared: boolean;
};

type TargetName = "app" | "baseline";
type Target = {
  name: TargetName;
  port: number;
  child: ManagedChild;
  paths: { answers(id: string): string; submit(id: string): string };
};

/** Per-measurement tallies beyond status codes. */
type Tally = {
  paced: number;
  answersSent: number;
  applied: number;
  notApplied: number;
  digestMismatches: number;
  unexpectedSamples: string[];
};

const MAX_REQUESTS_PER_MEASUREMENT = 2_000_000;
const DEFAULT_PACE_MS = 200;
const SAMPLE_LIMIT = 5;

function newTally(): Tally {
  return { paced: 0, answersSent: 0, applied: 0, notApplied: 0, digestMismatches: 0, unexpectedSamples: [] };
}

function classify(result: HttpResult, tally: Tally, label: string): Outcome {
  const key = outcomeKey(result);
  if (result.status >= 200 && result.status < 300) return { key, kind: "ok" };
  if (result.status === 429) return { key, kind: "limited" };
  if (tally.unexpectedSamples.length < SAMPLE_LIMIT) {
    tally.unexpectedSamples.push(`${label}: ${key}${result.status !== 0 ? ` ${result.body.slice(0, 300)}` : ""}`);
  }
  return { key, kind: "unexpected" };
}

/** Splits `items` into `groups` consecutive groups of `size`. */
function chunk<T>(items: readonly T[], groups: number, size: number): T[][] {
  return Array.from({ length: groups }, (_, index) => items.slice(index * size, (index + 1) * size));
}

function autosaveWorkload(options: {
  target: Target;
  agent: Agent;
  pools: SeededCandidate[][];
  questions: readonly BenchQuestion[];
  paceMs: number;
  timeoutMs: number;
  tally: Tally;
  signal: AbortSignal;
}): (client: number) => Promise<Operation | null> {
  const { target, tally } = options;
  const cursors = options.pools.map(() => 0);
  return async (client) => {
    const pool = options.pools[client] ?? [];
    const candidate = pool[(cursors[client] ?? 0) % pool.length];
    cursors[client] = (cursors[client] ?? 0) + 1;
    if (!candidate) return null;
    const wait = candidate.lastSentAt + options.paceMs - performance.now();
    if (wait > 0) {
      tally.paced += 1;
      await sleep(wait, options.signal);
    }
    candidate.lastSentAt = performance.now();

    const answers = pickQuestions(options.questions, 1 + randomInt(3)).map((question) => {
      candidate.clock += 1;
      const value = randomValue(question);
      candidate.paper.set(question.id, value);
      return { questionId: question.id, value, version: candidate.clock };
    });
    const body = JSON.stringify({ deviceId: `bench-${target.name}-${client}`, answers });
    const headers: Record<string, string> = target.name === "app" ? { cookie: candidate.cookie } : {};
    const path = target.paths.answers(candidate.attemptId);

    return async () => {
      const result = await send({
        agent: options.agent,
        port: target.port,
        method: "POST",
        path,
        headers,
        body,
        timeoutMs: options.timeoutMs,
      });
      const outcome = classify(result, tally, `autosave ${target.name}`);
      if (outcome.kind !== "ok" || result.status === 0) return outcome;
      tally.answersSent += answers.length;
      const parsed = JSON.parse(result.body) as { results?: { status: string }[]; applied?: string[] };
      const applied = parsed.results
        ? parsed.results.filter((item) => item.status === "applied").length
        : (parsed.applied?.length ?? 0);
      tally.applied += applied;
      tally.notApplied += answers.length - applied;
      return outcome;
    };
  };
}

function submitWorkload(options: {
  target: Target;
  agent: Agent;
  pools: SeededCandidate[][];
  questions: readonly BenchQuestion[];
  timeoutMs: number;
  tally: Tally;
}): (client: number) => Promise<Operation | null> {
  const { target, tally } = options;
  const cursors = options.pools.map(() => 0);
  return async (client) => {
    const candidate = options.pools[client]?.[cursors[client] ?? 0];
    cursors[client] = (cursors[client] ?? 0) + 1;
    if (!candidate) return null;

    const [question] = pickQuestions(options.questions, 1);
    if (!question) return null;
    candidate.clock += 1;
    const value = randomValue(question);
    candidate.paper.set(question.id, value);
    const digest = await answersDigest(
      [...candidate.paper].map(([questionId, answer]) => ({ questionId, value: answer })),
    );
    const body = JSON.stringify({
      deviceId: `bench-${target.name}-${client}`,
      answers: [{ questionId: question.id, value, version: candidate.clock }],
      digest,
    });
    const headers: Record<string, string> = { "idempotency-key": randomUUID() };
    if (target.name === "app") headers.cookie = candidate.cookie;
    const path = target.paths.submit(candidate.attemptId);

    return async () => {
      const result = await send({
        agent: options.agent,
        port: target.port,
        method: "POST",
        path,
        headers,
        body,
        timeoutMs: options.timeoutMs,
      });
      const outcome = classify(result, tally, `submit ${target.name}`);
      if (outcome.kind !== "ok" || result.status === 0) return outcome;
      const parsed = JSON.parse(result.body) as { digestMatches?: boolean | null };
      if (parsed.digestMatches !== true) tally.digestMismatches += 1;
      return outcome;
    };
  };
}

/**
 * The floor: a request that does no work. On the app, GET of an /api path without a route, answered by
 * the catch-all route handler (app/api/[...path]/route.ts) with a constant 404 JSON body: Next's own
 * routing, request and response handling, nothing of ours but one small function. On the baseline,
 * GET /health, a constant 200 JSON body from node:http.
 */
function floorWorkload(options: {
  target: Target;
  agent: Agent;
  timeoutMs: number;
  tally: Tally;
}): (client: number) => Promise<Operation | null> {
  const { target, tally } = options;
  const path = target.name === "app" ? "/api/bench-floor" : "/health";
  const expected = target.name === "app" ? 404 : 200;
  return async () => async () => {
    const result = await send({
      agent: options.agent,
      port: target.port,
      method: "GET",
      path,
      timeoutMs: options.timeoutMs,
    });
    if (result.status === expected) return { key: outcomeKey(result), kind: "ok" };
    return classify(result, tally, `floor ${target.name}`);
  };
}

type Measurement = {
  operation: "autosave" | "submit" | "floor";
  target: TargetName;
  result: LoadResult;
  tally: Tally;
  serverLog: Record<string, number>;
  /** One-minute load average of the machine when the window began: how shared the box was. */
  loadAverage: number;
  cpu: CpuUsage | null;
  /** CPU milliseconds per measured request, per party. */
  cpuPerRequestMs: { server: number; postgres: number; loadGenerator: number } | null;
  /** The measured window on the monotonic clock (µs), the clock of V8's profile samples. */
  windowUs: { from: number; to: number } | null;
};

function perRequest(cpu: CpuUsage | null, requests: number): Measurement["cpuPerRequestMs"] {
  if (!cpu || requests === 0) return null;
  const round = (ms: number): number => Math.round((ms / requests) * 100) / 100;
  return { server: round(cpu.serverMs), postgres: round(cpu.postgresMs), loadGenerator: round(cpu.loadGeneratorMs) };
}

function describeCpu(measurement: Measurement): string {
  const perRequestMs = measurement.cpuPerRequestMs;
  const cpu = measurement.cpu;
  const load = `load ${measurement.loadAverage.toFixed(1)}`;
  if (!perRequestMs || !cpu) return load;
  const busy = measurement.result.elapsedMs > 0 ? Math.round((cpu.serverMs / measurement.result.elapsedMs) * 100) : 0;
  return `cpu/req: server ${perRequestMs.server.toFixed(1)} ms (${busy}% of a core), pg ${perRequestMs.postgres.toFixed(1)} ms, client ${perRequestMs.loadGenerator.toFixed(1)} ms; ${load}`;
}

async function measure(options: {
  operation: "autosave" | "submit" | "floor";
  target: Target;
  clients: number;
  warmupMs: number;
  windowMs: number;
  signal: AbortSignal;
  databaseUrl: string;
  maxWarmupRequestsPerClient?: number;
  makeWorkload: (agent: Agent, tally: Tally) => (client: number) => Promise<Operation | null>;
}): Promise<Measurement> {
  await checkpoint();
  await sleep(500, options.signal);
  // A fresh pool of connections per measurement: no socket left idle past a server's keep-alive timeout.
  const agent = createAgent(options.clients);
  const tally = newTally();
  options.target.child.resetLineCounts();
  let probe: Promise<CpuProbe> | undefined;
  let loadAverage = 0;
  let windowFromUs: number | null = null;
  try {
    const result = await runClosedLoop({
      clients: options.clients,
      warmupMs: options.warmupMs,
      windowMs: options.windowMs,
      maxRequests: MAX_REQUESTS_PER_MEASUREMENT,
      signal: options.signal,
      next: options.makeWorkload(agent, tally),
      maxWarmupRequestsPerClient: options.maxWarmupRequestsPerClient,
      onWindowStart: () => {
        loadAverage = Math.round((loadavg()[0] ?? 0) * 100) / 100;
        windowFromUs = monotonicUs();
        probe = startCpuProbe({ serverGroup: options.target.child.pid, databaseUrl: options.databaseUrl });
      },
    });
    const windowToUs = monotonicUs();
    const cpu = probe ? await (await probe).stop() : null;
    return {
      operation: options.operation,
      target: options.target.name,
      result,
      tally,
      serverLog: options.target.child.lineCounts(),
      loadAverage,
      cpu,
      cpuPerRequestMs: perRequest(cpu, result.requests),
      windowUs: windowFromUs === null ? null : { from: windowFromUs, to: windowToUs },
    };
  } finally {
    agent.destroy();
  }
}

async function countSubmissions(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: number }>("SELECT count(*)::int AS count FROM submissions");
    return rows[0]?.count ?? 0;
  } finally {
    await client.end();
  }
}

export const syncScenario: Scenario<SyncOptions> = {
  name: "sync",
  summary: "autosave and submit at N concurrent clients: the app against a bare node:http + pg baseline, same run",
  usage: [
    "  --clients N              concurrent clients (closed loop)                        50",
    "  --duration S             seconds measured per measurement                        15",
    "  --warmup S               unmeasured seconds before each autosave measurement     3",
    "  --submit-warmup S        unmeasured seconds before each submit measurement       1",
    "                           (taking at most a tenth of each client's attempts)",
    "  --attempts-per-client N  attempts each autosave client rotates over              10",
    "  --submits-per-client N   attempts each submit client may submit (then it stops)  60",
    "  --pace-ms MS             least time between two autosaves of one attempt         half the app's per-attempt limit",
    "  --pool N                 database connections, app (DATABASE_POOL_MAX) and baseline  10",
    "  --seed-concurrency N     parallel requests while seeding                         32",
    "  --request-timeout-ms MS  a request without an answer by then counts as an error  10000",
    "  --build auto|always|never  next build: when sources are newer than .next/BUILD_ID   auto",
    "  --only autosave|submit   run one operation's measurements (and seed only for it)  both",
    "  --floor                  also measure a constant JSON answer on each server (the   off",
    "                           framework's floor: the app's catch-all API route, the",
    "                           baseline's /health), and print floor app / autosave baseline",
    "  --baseline-prepared      the baseline prepares its statements once per connection,  off",
    "                           as the app does (less Postgres work per save and submit)",
    "  --profile                run the app with --cpu-prof; print where its CPU went in   off",
    "                           each measured window (bench/lib/reporting/profile-summary.ts) and",
    "                           keep the .cpuprofile in bench/results/profiles/",
    WORKER_SETUP_USAGE,
  ].join("\n"),

  options(flags: Flags): SyncOptions {
    const paceMs = flags.number("pace-ms", -1, { min: -1, max: 60_000, isInteger: true });
    return {
      clients: flags.number("clients", 50, { min: 1, max: 1_000, isInteger: true }),
      durationSeconds: flags.number("duration", 15, { min: 1, max: 600 }),
      warmupSeconds: flags.number("warmup", 3, { min: 0, max: 120 }),
      submitWarmupSeconds: flags.number("submit-warmup", 1, { min: 0, max: 60 }),
      attemptsPerClient: flags.number("attempts-per-client", 10, { min: 1, max: 1_000, isInteger: true }),
      submitsPerClient: flags.number("submits-per-client", 60, { min: 1, max: 10_000, isInteger: true }),
      paceMs: paceMs === -1 ? null : paceMs,
      poolMax: flags.number("pool", 10, { min: 1, max: 90, isInteger: true }),
      seedConcurrency: flags.number("seed-concurrency", 32, { min: 1, max: 256, isInteger: true }),
      requestTimeoutMs: flags.number("request-timeout-ms", 10_000, { min: 100, max: 120_000, isInteger: true }),
      build: flags.choice("build", ["auto", "always", "never"] as const, "auto"),
      only: flags.choice("only", ["autosave", "submit", "both"] as const, "both"),
      profile: flags.boolean("profile"),
      ...workerSetupFlags(flags),
      floor: flags.boolean("floor"),
      baselinePrepared: flags.boolean("baseline-prepared"),
    };
  },

  async run(options, signal) {
    const problems: string[] = [];
    const startedAt = new Date();
    const env0 = environment();

    // Pace each attempt at half the app's per-attempt autosave limit.
    const limits = readAutosaveLimit();
    const limitPerSecond = limits.perAttempt ? limits.perAttempt.points / limits.perAttempt.durationSeconds : null;
    const paceMs = options.paceMs ?? (limitPerSecond ? Math.ceil(2_000 / limitPerSecond) : DEFAULT_PACE_MS);
    const paceCapRps = Math.round((options.clients * options.attemptsPerClient * 1_000) / Math.max(1, paceMs));
    const pacing =
      `each attempt autosaved at most once per ${paceMs} ms (${(1_000 / Math.max(1, paceMs)).toFixed(1)}/s); ` +
      `app's per-attempt autosave limit: ${describeLimit(limits.perAttempt)} (${limits.source}; ` +
      `${limits.isWired ? `applied in ${limits.wiredIn.join(", ")}` : "not yet applied by any route"}); ` +
      `each client rotates over ${options.attemptsPerClient} attempts, so pacing caps the load at ${paceCapRps} req/s`;
    say(`pacing: ${pacing}`);

    // 1.
    const database = await createMigratedDatabase("sync");
    const appEnv = appEnvironment({
      databaseUrl: database.url,
      redisUrl: "redis://127.0.0.1:6379",
      poolMax: options.poolMax,
    });
    const build = await ensureBuild({ mode: options.build, env: appEnv, signal });
    if (signal.aborted) return { isOk: false };
    // The profile is written when the app exits; it is stopped before the summary below.
    const profileDir = options.profile ? profileDirectory("sync") : null;
    const app = await startApp({
      buildId: build.buildId,
      env: appEnv,
      // Not in NODE_OPTIONS, where Node does not allow --cpu-prof.
      nodeArgs: [
        ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
        ...contextHookArgs(options.contextHooks),
      ],
      signal,
      warmPages: options.isWarmedWithPages,
    });
    const baseline = await startBaseline({
      databaseUrl: database.url,
      poolMax: options.poolMax,
      signal,
      isPrepared: options.baselinePrepared,
    });
    const health = await (await fetch(`http://127.0.0.1:${app.port}/api/health`)).json();
    say(`app health: ${JSON.stringify(health)}`);

    const targets: Record<TargetName, Target> = {
      app: {
        name: "app",
        port: app.port,
        child: app.child,
        paths: { answers: (id) => `/api/attempts/${id}/answers`, submit: (id) => `/api/attempts/${id}/submit` },
      },
      baseline: {
        name: "baseline",
        port: baseline.port,
        child: baseline.child,
        paths: { answers: (id) => `/attempts/${id}/answers`, submit: (id) => `/attempts/${id}/submit` },
      },
    };

    // 2.
    const operations = options.only === "both" ? (["autosave", "submit"] as const) : ([options.only] as const);
    const autosaveCount = operations.includes("autosave") ? options.clients * options.attemptsPerClient : 0;
    const submitCount = operations.includes("submit") ? options.clients * options.submitsPerClient : 0;
    const seedAgent = createAgent(options.seedConcurrency);
    const api = new Api({ port: app.port, agent: seedAgent, adminToken: appEnv.ADMIN_API_TOKEN, signal });
    const seedStartedAt = Date.now();
    const exam = await createExam(api, `Benchmark ${startedAt.toISOString()}`);
    const seeded = await seedCandidates(api, {
      examId: exam.examId,
      questions: exam.questions,
      count: 2 * (autosaveCount + submitCount),
      concurrency: options.seedConcurrency,
      signal,
    });
    seedAgent.destroy();
    const seedSeconds = Math.round((Date.now() - seedStartedAt) / 1000);
    say(`seeded ${seeded.length} candidates in ${seedSeconds} s`);
    const pools = {
      autosave: {
        app: chunk(seeded.slice(0, autosaveCount), options.clients, options.attemptsPerClient),
        baseline: chunk(seeded.slice(autosaveCount, 2 * autosaveCount), options.clients, options.attemptsPerClient),
      },
      submit: {
        app: chunk(
          seeded.slice(2 * autosaveCount, 2 * autosaveCount + submitCount),
          options.clients,
          options.submitsPerClient,
        ),
        baseline: chunk(seeded.slice(2 * autosaveCount + submitCount), options.clients, options.submitsPerClient),
      },
    };

    // 3. and 4.
    const measurements: Measurement[] = [];
    const lines: string[] = [];
    const windowMs = options.durationSeconds * 1_000;
    for (const operation of [...(options.floor ? (["floor"] as const) : []), ...operations]) {
      for (const name of ["app", "baseline"] as const) {
        if (signal.aborted) return { isOk: false };
        const target = targets[name];
        if (operation === "floor") {
          say(
            `measuring the floor on the ${name}: ${options.clients} clients, ${options.warmupSeconds} s warm-up + ${options.durationSeconds} s`,
          );
          const measurement = await measure({
            operation,
            target,
            clients: options.clients,
            warmupMs: options.warmupSeconds * 1_000,
            windowMs,
            signal,
            databaseUrl: database.url,
            makeWorkload: (agent, tally) =>
              floorWorkload({ target, agent, timeoutMs: options.requestTimeoutMs, tally }),
          });
          measurements.push(measurement);
          const line = formatMeasurement(`floor ${name}`, measurement.result, describeCpu(measurement));
          lines.push(line);
          console.log(line);
          continue;
        }
        say(
          `measuring ${operation} on the ${name}: ${options.clients} clients, ${operation === "autosave" ? options.warmupSeconds : options.submitWarmupSeconds} s warm-up + ${options.durationSeconds} s`,
        );
        const measurement = await measure({
          operation,
          target,
          clients: options.clients,
          warmupMs: (operation === "autosave" ? options.warmupSeconds : options.submitWarmupSeconds) * 1_000,
          windowMs,
          signal,
          databaseUrl: database.url,
          // Submits use up attempts: the warm-up may take a tenth of them, the window the rest.
          maxWarmupRequestsPerClient:
            operation === "submit" ? Math.max(1, Math.floor(options.submitsPerClient / 10)) : undefined,
          makeWorkload: (agent, tally) =>
            operation === "autosave"
              ? autosaveWorkload({
                  target,
                  agent,
                  pools: pools.autosave[name],
                  questions: exam.questions,
                  paceMs,
                  timeoutMs: options.requestTimeoutMs,
                  tally,
                  signal,
                })
              : submitWorkload({
                  target,
                  agent,
                  pools: pools.submit[name],
                  questions: exam.questions,
                  timeoutMs: options.requestTimeoutMs,
                  tally,
                }),
        });
        measurements.push(measurement);
        const line = formatMeasurement(`${operation} ${name}`, measurement.result, describeCpu(measurement));
        lines.push(line);
        console.log(line);
      }
    }
    if (signal.aborted) return { isOk: false };

    if (profileDir) {
      await app.stop();
      printWindowProfiles(
        profileDir,
        measurements
          .filter((item) => item.target === "app" && item.windowUs)
          .map((item) => ({
            title: `${item.operation} window`,
            fromUs: item.windowUs!.from,
            toUs: item.windowUs!.to,
            requests: item.result.requests,
          })),
      );
    }

    // Checks: anything here means the figures describe something other than the intended work.
    for (const { operation, target, result, tally, serverLog } of measurements) {
      const label = `${operation} ${target}`;
      // The app's floor is a 404 by design (its catch-all API route).
      const isExpected = (key: string): boolean =>
        /^2\d\d$/.test(key) || key.startsWith("429") || (operation === "floor" && key.startsWith("404"));
      const warmupUnexpected = Object.entries(result.warmupStatuses).filter(([key]) => !isExpected(key));
      if (result.unexpected > 0 || warmupUnexpected.length > 0) {
        const statuses = {
          ...result.statuses,
          ...Object.fromEntries(warmupUnexpected.map(([key, count]) => [`warm-up ${key}`, count])),
        };
        problems.push(
          `${label}: UNEXPECTED STATUSES ${JSON.stringify(statuses)}; for example:\n${tally.unexpectedSamples.join("\n")}`,
        );
      }
      if (result.limited > 0)
        shout(
          `${label}: ${result.limited} requests were rate limited (429); the pacing (${paceMs} ms per attempt) did not keep under the limit`,
        );
      if (tally.notApplied > 0)
        problems.push(
          `${label}: ${tally.notApplied} of ${tally.answersSent} answers were not applied (each had a new, greater version)`,
        );
      if (tally.digestMismatches > 0)
        problems.push(`${label}: ${tally.digestMismatches} submissions report a digest different from the client's`);
      if ((serverLog.error ?? 0) > 0)
        problems.push(`${label}: the ${target} logged ${serverLog.error} errors during the measurement`);
      if (result.requests === 0)
        problems.push(`${label}: no request was measured (all work was used up in the warm-up?)`);
      if (result.isRequestCapHit)
        problems.push(`${label}: stopped at the request cap of ${MAX_REQUESTS_PER_MEASUREMENT}`);
      if (operation === "autosave" && tally.paced > result.requests * 0.01) {
        shout(
          `${label}: pacing held back ${tally.paced} requests (of ${result.requests}): the load was capped near ${paceCapRps} req/s; use more --attempts-per-client`,
        );
      }
    }
    const submitted = measurements
      .filter((item) => item.operation === "submit")
      .reduce((sum, item) => sum + item.result.ok + (item.result.warmupStatuses["200"] ?? 0), 0);
    const submissions = await countSubmissions(database.url);
    if (submissions !== submitted)
      problems.push(`the database holds ${submissions} submissions, but ${submitted} submits answered 200`);
    if (currentBuildId() !== build.buildId)
      say(
        `note: .next was rebuilt by someone else during the run; this run measured build ${build.buildId} (from its private copy)`,
      );
    for (const problem of problems) shout(problem);

    // 5.
    const find = (operation: Measurement["operation"], target: TargetName): Measurement | undefined =>
      measurements.find((item) => item.operation === operation && item.target === target);
    const serverAndPostgres = (measurement: Measurement | undefined): number =>
      measurement?.cpuPerRequestMs ? measurement.cpuPerRequestMs.server + measurement.cpuPerRequestMs.postgres : 0;
    const ratios = Object.fromEntries(
      (["autosave", "submit"] as const).map((operation) => {
        const appMeasurement = find(operation, "app");
        const baselineMeasurement = find(operation, "baseline");
        return [
          operation,
          {
            throughput: ratio(appMeasurement?.result.throughput ?? 0, baselineMeasurement?.result.throughput ?? 0),
            p99: ratio(appMeasurement?.result.latency.p99 ?? 0, baselineMeasurement?.result.latency.p99 ?? 0),
            cpuPerRequest: ratio(serverAndPostgres(appMeasurement), serverAndPostgres(baselineMeasurement)),
          },
        ];
      }),
    ) as Record<"autosave" | "submit", { throughput: number | null; p99: number | null; cpuPerRequest: number | null }>;

    console.log("");
    console.log(
      `== sync: app / baseline, measured in the same run (${options.clients} clients, closed loop, ${options.durationSeconds} s each) ==`,
    );
    for (const operation of ["autosave", "submit"] as const) {
      const { throughput, p99, cpuPerRequest } = ratios[operation];
      console.log(
        `${operation.padEnd(9)} throughput ${formatRatio(throughput).padStart(6)}   p99 ${formatRatio(p99).padStart(6)}` +
          `   CPU per request, server + Postgres ${formatRatio(cpuPerRequest).padStart(6)}`,
      );
    }
    const floorApp = find("floor", "app");
    if (floorApp) {
      const floorBaseline = find("floor", "baseline");
      const autosaveBaseline = find("autosave", "baseline");
      console.log(
        `floor     app's trivial route / autosave baseline: throughput ${formatRatio(ratio(floorApp.result.throughput, autosaveBaseline?.result.throughput ?? 0)).padStart(6)}` +
          `   p99 ${formatRatio(ratio(floorApp.result.latency.p99, autosaveBaseline?.result.latency.p99 ?? 0)).padStart(6)}` +
          `;  / baseline's trivial route: throughput ${formatRatio(ratio(floorApp.result.throughput, floorBaseline?.result.throughput ?? 0))}` +
          `;  app server CPU ${floorApp.cpuPerRequestMs?.server.toFixed(2) ?? "n/a"} ms/req`,
      );
    }
    console.log(`pacing: ${pacing}`);
    console.log(
      `seeding: ${seeded.length} candidates through the API in ${seedSeconds} s; build ${build.buildId} (${build.isBuilt ? "built" : "reused"}: ${build.reason}); ` +
        `pool ${options.poolMax} connections each; app health ${JSON.stringify(health)}` +
        (options.contextHooks === "off"
          ? "; context hooks off (a measurement: the app's AsyncLocalStorage never hooks promises)"
          : ""),
    );
    console.log(
      `checks: ${problems.length === 0 ? `all passed (${submissions} submissions in the database for ${submitted} submits answered 200, no unexpected status)` : `${problems.length} FAILED (see above)`}`,
    );

    const file = writeResults("sync", {
      scenario: "sync",
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      options: { ...options, paceMs },
      environment: env0,
      build,
      appHealth: health,
      autosaveLimit: limits,
      pacing: { paceMs, capRps: paceCapRps, description: pacing },
      seeding: { candidates: seeded.length, seconds: seedSeconds, questions: exam.questions.length },
      measurements,
      ratios,
      submissions: { inDatabase: submissions, answered200: submitted },
      problems,
      lines,
    });
    console.log(`results: ${file}`);
    return { isOk: problems.length === 0 };
  },
};
