// `npm run bench -- delta-vs-full`: what one edit costs when the client sends only what changed (the
// contract's delta) against a client that saves the whole paper every time (every answer at a new
// version, as a "save the form" page does). Per edit: request body bytes, response bytes, rows the
// server wrote, WAL bytes Postgres wrote, latency and server CPU. The database runs on a private
// PostgreSQL cluster, so its WAL position moves for this run's writes only.
//
// Every candidate's paper is filled first (20 questions, essays of 40–80 words). Then each candidate
// makes `--edits` edits one after another, each saved at once (no debounce, so one request is one
// edit), `--concurrency` candidates at a time: on the app with deltas, on the app with whole papers,
// and on the baseline with deltas (the physical limit, in the same run).
import { randomInt } from "node:crypto";
import { performance } from "node:perf_hooks";

import pg from "pg";

import type { Flags } from "../lib/run/args";
import { startApp, type BuildMode } from "../lib/servers/app-server";
import { startBaseline } from "../lib/servers/baseline";
import { BASELINE_PATHS } from "../lib/load/baseline-population";
import { startCpuProbe } from "../lib/load/cpu";
import { checkpoint, createMigratedDatabase } from "../lib/servers/database";
import { randomValue } from "../lib/candidates/exam";
import { createAgent, outcomeKey, send } from "../lib/load/http-client";
import { Counter, LatencyRecorder, type LatencySummary } from "../lib/load/latency";
import { say, shout } from "../lib/run/log";
import { mapLimit } from "../lib/load/map-limit";
import { writeMarkdownReport } from "../lib/reporting/markdown-report";
import { startPrivatePostgres } from "../lib/faults/private-postgres";
import { environment, figureLines, formatRatio, ratio, writeResults } from "../lib/reporting/report";
import type { Scenario } from "../lib/run/scenario";
import { seedCandidates, type SeededCandidate } from "../lib/candidates/seed";
import { latencyDistributionChart } from "../lib/reporting/svg-chart";
import { APP_PATHS } from "../lib/candidates/transport";
import { appEnvironment, buildApp, createBenchExam } from "../lib/run/stage";

export type DeltaVsFullOptions = {
  candidates: number;
  edits: number;
  concurrency: number;
  poolMax: number;
  build: BuildMode;
};

type Mode = { name: string; target: "app" | "baseline"; isFull: boolean };

const MODES: Mode[] = [
  { name: "delta app", target: "app", isFull: false },
  { name: "full paper app", target: "app", isFull: true },
  { name: "delta baseline", target: "baseline", isFull: false },
];

type ModeResult = {
  mode: string;
  edits: number;
  elapsedMs: number;
  editsPerSecond: number;
  requestBytesPerEdit: number;
  responseBytesPerEdit: number;
  rowsWrittenPerEdit: number;
  walBytesPerEdit: number;
  serverCpuMsPerEdit: number | null;
  postgresCpuMsPerEdit: number | null;
  latency: LatencySummary;
  statuses: Record<string, number>;
  samples: Float64Array;
};

async function walPosition(adminUrl: string): Promise<bigint> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ lsn: string }>("SELECT (pg_current_wal_lsn() - '0/0'::pg_lsn)::text AS lsn");
    return BigInt(rows[0]?.lsn ?? "0");
  } finally {
    await client.end();
  }
}

export const deltaVsFullScenario: Scenario<DeltaVsFullOptions> = {
  name: "delta-vs-full",
  summary: "bytes sent, rows and WAL written per edit: deltas against whole-paper saves",
  usage: [
    "  --candidates N           candidates per mode (each with a filled 20-question paper)  50",
    "  --edits N                edits per candidate, each saved at once                    40",
    "  --concurrency N          candidates editing at the same time                         20",
    "  --pool N                 database connections, app and baseline                     10",
    "  --build auto|always|never  next build when sources are newer than .next/BUILD_ID    auto",
  ].join("\n"),

  options(flags: Flags): DeltaVsFullOptions {
    return {
      candidates: flags.number("candidates", 50, { min: 1, max: 5_000, isInteger: true }),
      edits: flags.number("edits", 40, { min: 1, max: 10_000, isInteger: true }),
      concurrency: flags.number("concurrency", 20, { min: 1, max: 500, isInteger: true }),
      poolMax: flags.number("pool", 10, { min: 1, max: 50, isInteger: true }),
      build: flags.choice("build", ["auto", "always", "never"] as const, "auto"),
    };
  },

  async run(options, signal) {
    const problems: string[] = [];
    const env0 = environment();
    const postgres = await startPrivatePostgres({ signal });
    const database = await createMigratedDatabase("delta", { adminUrl: postgres.adminUrl });
    const env = appEnvironment({
      databaseUrl: database.url,
      redisUrl: "redis://127.0.0.1:6379",
      poolMax: options.poolMax,
    });
    const buildId = await buildApp({ mode: options.build, env, signal });
    if (signal.aborted) return { isOk: false };
    const app = await startApp({ buildId, env, signal });
    const baseline = await startBaseline({ databaseUrl: database.url, poolMax: options.poolMax, signal });
    const exam = await createBenchExam({ port: app.port, adminToken: env.ADMIN_API_TOKEN, signal });
    const seeded = await seedCandidates(exam.api, {
      examId: exam.examId,
      questions: exam.questions,
      count: options.candidates * MODES.length,
      concurrency: 32,
      signal,
    });
    exam.agent.destroy();

    const results: ModeResult[] = [];
    for (const [position, mode] of MODES.entries()) {
      if (signal.aborted) return { isOk: false };
      const candidates = seeded.slice(position * options.candidates, (position + 1) * options.candidates);
      const server =
        mode.target === "app"
          ? { port: app.port, pid: app.child.pid, paths: APP_PATHS }
          : { port: baseline.port, pid: baseline.child.pid, paths: BASELINE_PATHS };
      const agent = createAgent(options.concurrency);
      const latency = new LatencyRecorder();
      const statuses = new Counter();
      let requestBytes = 0;
      let responseBytes = 0;
      let rowsWritten = 0;
      // Warm-up, unmeasured: one save per connection, so the pools are open and counted by the CPU probe.
      await mapLimit(
        candidates.slice(0, options.concurrency),
        options.concurrency,
        signal,
        async (candidate: SeededCandidate, index) => {
          candidate.clock += 1;
          const [questionId, value] = [...candidate.paper][0]!;
          const body = JSON.stringify({
            deviceId: `delta-${position}-${index}`,
            answers: [{ questionId, value, version: candidate.clock }],
          });
          await send({
            agent,
            port: server.port,
            method: "POST",
            path: server.paths.answers(candidate.attemptId),
            headers: mode.target === "app" ? { cookie: candidate.cookie } : {},
            body,
          });
        },
      );
      await checkpoint({ adminUrl: postgres.adminUrl });
      const walBefore = await walPosition(postgres.adminUrl);
      const probe = await startCpuProbe({ serverGroup: server.pid, databaseUrl: database.url });
      const startedAt = performance.now();
      say(`${mode.name}: ${options.candidates} candidates × ${options.edits} edits, ${options.concurrency} at a time`);
      await mapLimit(candidates, options.concurrency, signal, async (candidate: SeededCandidate, index) => {
        const deviceId = `delta-${position}-${index}`;
        for (let edit = 0; edit < options.edits && !signal.aborted; edit += 1) {
          const question = exam.questions[randomInt(exam.questions.length)]!;
          candidate.clock += 1;
          candidate.paper.set(question.id, randomValue(question));
          const answers = mode.isFull
            ? [...candidate.paper].map(([questionId, value]) => ({ questionId, value, version: candidate.clock }))
            : [{ questionId: question.id, value: candidate.paper.get(question.id), version: candidate.clock }];
          const body = JSON.stringify({ deviceId, answers });
          const began = performance.now();
          const result = await send({
            agent,
            port: server.port,
            method: "POST",
            path: server.paths.answers(candidate.attemptId),
            headers: mode.target === "app" ? { cookie: candidate.cookie } : {},
            body,
          });
          latency.record(performance.now() - began);
          statuses.add(outcomeKey(result));
          requestBytes += Buffer.byteLength(body);
          responseBytes += Buffer.byteLength(result.body);
          if (result.status !== 200) continue;
          const parsed = JSON.parse(result.body) as { results?: { status: string }[]; applied?: string[] };
          rowsWritten += parsed.results
            ? parsed.results.filter((item) => item.status === "applied").length
            : (parsed.applied?.length ?? 0);
        }
      });
      const elapsedMs = performance.now() - startedAt;
      const cpu = await probe.stop();
      const walAfter = await walPosition(postgres.adminUrl);
      agent.destroy();
      const edits = options.candidates * options.edits;
      const per = (total: number): number => Math.round((total / edits) * 10) / 10;
      const result: ModeResult = {
        mode: mode.name,
        edits,
        elapsedMs: Math.round(elapsedMs),
        editsPerSecond: Math.round((edits / elapsedMs) * 1000 * 10) / 10,
        requestBytesPerEdit: per(requestBytes),
        responseBytesPerEdit: per(responseBytes),
        rowsWrittenPerEdit: Math.round((rowsWritten / edits) * 100) / 100,
        walBytesPerEdit: per(Number(walAfter - walBefore)),
        serverCpuMsPerEdit: cpu ? Math.round((cpu.serverMs / edits) * 100) / 100 : null,
        postgresCpuMsPerEdit: cpu ? Math.round((cpu.postgresMs / edits) * 100) / 100 : null,
        latency: latency.summary(),
        statuses: statuses.toJSON(),
        samples: latency.sortedSamples(),
      };
      results.push(result);
      const unexpected = Object.keys(result.statuses).filter((key) => key !== "200");
      if (unexpected.length) problems.push(`${mode.name}: answers other than 200: ${JSON.stringify(result.statuses)}`);
    }

    const { lines, show } = figureLines();
    for (const result of results) {
      show(
        `${result.mode.padEnd(16)} ${String(result.requestBytesPerEdit).padStart(8)} B sent/edit  ${String(result.responseBytesPerEdit).padStart(6)} B back  ` +
          `${String(result.rowsWrittenPerEdit).padStart(5)} rows  ${String(result.walBytesPerEdit).padStart(8)} B WAL/edit  ` +
          `${result.editsPerSecond} edits/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  cpu/edit server ${result.serverCpuMsPerEdit ?? "n/a"} ms, pg ${result.postgresCpuMsPerEdit ?? "n/a"} ms`,
      );
    }
    const [delta, full, base] = results;
    if (delta && full) {
      show(
        `full paper / delta: ${formatRatio(ratio(full.requestBytesPerEdit, delta.requestBytesPerEdit))} bytes sent, ${formatRatio(ratio(full.rowsWrittenPerEdit, delta.rowsWrittenPerEdit))} rows written, ` +
          `${formatRatio(ratio(full.walBytesPerEdit, delta.walBytesPerEdit))} WAL, ${formatRatio(ratio(full.latency.p99, delta.latency.p99))} p99, ${formatRatio(ratio(full.editsPerSecond, delta.editsPerSecond))} throughput`,
      );
    }
    if (delta && base) {
      show(
        `delta app / baseline: throughput ${formatRatio(ratio(delta.editsPerSecond, base.editsPerSecond))}, p99 ${formatRatio(ratio(delta.latency.p99, base.latency.p99))}, WAL/edit ${formatRatio(ratio(delta.walBytesPerEdit, base.walBytesPerEdit))}`,
      );
    }
    const json = writeResults("delta-vs-full", {
      scenario: "delta-vs-full",
      environment: env0,
      options,
      results: results.map((result) => ({ ...result, samples: undefined })),
      lines,
      problems,
    });
    const report = writeMarkdownReport({
      scenario: "delta-vs-full",
      title: `Delta against whole-paper saves: ${options.candidates} candidates × ${options.edits} edits per mode`,
      verdict: problems.length === 0 ? "passed" : "failed",
      summary: lines,
      sections: [
        {
          heading: "Per edit",
          paragraphs: [
            "Each edit is saved at once. Full paper: every answer of the 20-question paper at a new version, as a save-the-form client does. WAL is read from a private PostgreSQL cluster's WAL position, so only this run's writes count.",
          ],
          table: {
            columns: [
              "mode",
              "bytes sent",
              "bytes back",
              "rows written",
              "WAL bytes",
              "edits/s",
              "p50 ms",
              "p99 ms",
              "server CPU ms",
              "pg CPU ms",
            ],
            rows: results.map((result) => [
              result.mode,
              result.requestBytesPerEdit,
              result.responseBytesPerEdit,
              result.rowsWrittenPerEdit,
              result.walBytesPerEdit,
              result.editsPerSecond,
              result.latency.p50,
              result.latency.p99,
              result.serverCpuMsPerEdit ?? "n/a",
              result.postgresCpuMsPerEdit ?? "n/a",
            ]),
          },
          charts: [
            {
              name: "percentiles",
              svg: latencyDistributionChart({
                title: "latency per edit, by percentile",
                series: results.map((result) => ({ name: result.mode, samplesSortedMs: result.samples })),
              }),
              alt: "latency per edit by percentile",
            },
          ],
        },
      ],
      jsonFile: json,
      environment: env0,
    });
    say(`results: ${json}; report: ${report}`);
    if (problems.length) shout(problems.join("\n"));
    return { isOk: problems.length === 0 };
  },
};
