// `npm run bench -- dashboard`: the proctor dashboard with 10,000 candidates, in Chromium, measured in the page.
//
// 1. A private database, migrated, and a private Redis; the app built if needed and started.
// 2. One exam. `--live` candidates are enrolled, joined and started through the real API (they send the
//    heartbeats later); the rest of `--candidates` are written in SQL for speed: enrollments, attempts for
//    most of them (some not started), a durable heartbeat row for many, a few submitted.
// 3. An admin signs in; Chromium opens the dashboard with a probe (bench/lib/browser/frame-probe.ts) that records
//    long tasks (PerformanceObserver `longtask`) and the interval between animation frames.
//    Time to first rows: navigation start → the first data row in the DOM.
// 4. Baseline: `--duration` seconds of scrolling the table (mouse wheel) and re-sorting it (a column header
//    every 3 s), with no update stream. Then the same interaction while a node loop posts `--rate`
//    heartbeats a second through the API, cycling over the live candidates with changing facts, so the
//    events stream pushes real changes.
// 5. One line per figure (long tasks, p50/p95/p99 frame time, frame rate) for both phases and the ratio,
//    and the whole run in bench/results/dashboard-<time>.json. Not part of `npm test`.
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";

import { hash } from "@node-rs/argon2";
import type { Page } from "@playwright/test";
import pg from "pg";

import type { Flags } from "../lib/run/args";
import { ensureBuild, startApp, type BuildMode } from "../lib/servers/app-server";
import { launchChromium } from "../lib/browser/browser";
import { createMigratedDatabase } from "../lib/servers/database";
import { installFrameProbe, summariseFrames, takeFrames, type FrameSummary } from "../lib/browser/frame-probe";
import { createAgent, send } from "../lib/load/http-client";
import { say, shout, sleep } from "../lib/run/log";
import { startPrivateRedis } from "../lib/faults/private-redis";
import { environment, figureLines, formatRatio, ratio, writeResults } from "../lib/reporting/report";
import type { Scenario } from "../lib/run/scenario";
import { seedCandidates } from "../lib/candidates/seed";
import { appEnvironment, createBenchExam } from "../lib/run/stage";

export type DashboardOptions = {
  candidates: number;
  live: number;
  /** Heartbeats a second during the stream phase. */
  rate: number;
  durationS: number;
  build: BuildMode;
};

type Phase = {
  name: "baseline" | "stream";
  frames: FrameSummary;
  heartbeats: { sent: number; byStatus: Record<string, number> };
  sorts: number;
};

const SORT_HEADERS = ["Time left", "Connection", "Sync", "Candidate", "Answered", "At risk"];

/** Scroll and sort for `durationMs`, like a proctor scanning the class. */
async function interact(page: Page, durationMs: number, signal: AbortSignal): Promise<number> {
  const table = page.getByTestId("candidates-scroll");
  const box = await table.boundingBox();
  if (!box) throw new Error("the candidates table is not on screen");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const endAt = performance.now() + durationMs;
  let step = 0;
  let sorts = 0;
  while (performance.now() < endAt && !signal.aborted) {
    // Down for a while, then back up: a long scroll through thousands of rows.
    await page.mouse.wheel(0, step % 60 < 40 ? 900 : -1_300);
    step += 1;
    if (step % 30 === 0) {
      await page.getByRole("button", { name: SORT_HEADERS[sorts % SORT_HEADERS.length], exact: true }).click();
      sorts += 1;
    }
    await sleep(100, signal);
  }
  return sorts;
}

/** Seeds the SQL-written candidates of the exam: the bulk of the 10,000. */
async function seedInSql(databaseUrl: string, examId: string, count: number): Promise<void> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    await pool.query(
      `INSERT INTO enrollments (id, exam_id, name, email, join_token_hash)
       SELECT gen_random_uuid(), $1, 'Seeded Candidate ' || n, 'seeded-' || n || '@holdfast.test', md5(random()::text || n)
       FROM generate_series(1, $2::int) AS n`,
      [examId, count],
    );
    // Nine in ten have started, with deadlines spread over the next hour.
    await pool.query(
      `INSERT INTO attempts (id, enrollment_id, exam_id, status, started_at, deadline, revision)
       SELECT gen_random_uuid(), e.id, e.exam_id, 'in_progress', now() - random() * interval '20 minutes',
              now() + interval '10 minutes' + random() * interval '50 minutes', (random() * 40)::int
       FROM enrollments e LEFT JOIN attempts a ON a.enrollment_id = e.id
       WHERE e.exam_id = $1 AND a.id IS NULL AND e.email LIKE 'seeded-%' AND random() < 0.9`,
      [examId],
    );
    // Most started attempts have a device that reported: online and synced mostly, some offline with pending work.
    await pool.query(
      `INSERT INTO device_heartbeats (attempt_id, device_id, online, pending, oldest_pending_ms, last_ack_revision, clock,
                                      consecutive_failures, storage_persisted, first_seen_at, received_at)
       SELECT a.id, 'seed-' || substr(a.id::text, 1, 8), r < 0.92, CASE WHEN r < 0.85 THEN 0 ELSE (random() * 6)::int END,
              CASE WHEN r < 0.85 THEN 0 ELSE (random() * 90000)::int END, a.revision, a.revision, 0, true,
              a.started_at, now() - random() * interval '40 seconds'
       FROM (SELECT id, revision, started_at, random() AS r FROM attempts WHERE exam_id = $1) a
       WHERE random() < 0.8`,
      [examId],
    );
  } finally {
    await pool.end();
  }
}

async function createAdmin(databaseUrl: string): Promise<{ email: string; password: string }> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const admin = { email: `bench-admin-${randomUUID().slice(0, 8)}@holdfast.test`, password: randomUUID() };
  try {
    await pool.query(
      "INSERT INTO staff_users (id, email, name, role, password_hash) VALUES ($1, $2, $3, 'admin', $4)",
      [randomUUID(), admin.email, "Bench Admin", await hash(admin.password)],
    );
  } finally {
    await pool.end();
  }
  return admin;
}

/** Posts heartbeats at `rate` a second until `stop`, cycling over the live candidates with changing facts. */
function heartbeatLoop(options: {
  port: number;
  rate: number;
  candidates: readonly { cookie: string; attemptId: string }[];
  signal: AbortSignal;
}): { stop: () => Promise<{ sent: number; byStatus: Record<string, number> }> } {
  const agent = createAgent(64);
  const byStatus: Record<string, number> = {};
  let sent = 0;
  let isStopped = false;
  const inFlight = new Set<Promise<void>>();
  const tickMs = 20;
  const run = (async () => {
    const startedAt = performance.now();
    while (!isStopped && !options.signal.aborted) {
      const due = Math.floor(((performance.now() - startedAt) / 1000) * options.rate);
      while (sent < due && inFlight.size < 256) {
        const candidate = options.candidates[sent % options.candidates.length]!;
        const round = Math.floor(sent / options.candidates.length);
        const isOffline = (sent + round) % 7 === 0;
        const pending = (sent + round) % 5 === 0 ? (round % 4) + 1 : 0;
        sent += 1;
        const request = send({
          agent,
          port: options.port,
          method: "POST",
          path: `/api/attempts/${candidate.attemptId}/heartbeat`,
          headers: { cookie: candidate.cookie },
          body: JSON.stringify({
            deviceId: "bench-live",
            online: !isOffline,
            pending,
            oldestPendingMs: pending > 0 ? 1_000 * round : 0,
            lastAckRevision: round,
            clock: round,
            consecutiveFailures: 0,
            storagePersisted: true,
          }),
          timeoutMs: 10_000,
        }).then((result) => {
          const key = String(result.status || result.error || "ERR");
          byStatus[key] = (byStatus[key] ?? 0) + 1;
        });
        inFlight.add(request);
        void request.finally(() => inFlight.delete(request));
      }
      await sleep(tickMs, options.signal).catch(() => undefined);
    }
  })();
  return {
    stop: async () => {
      isStopped = true;
      await run;
      await Promise.all(inFlight);
      agent.destroy();
      return { sent, byStatus };
    },
  };
}

function printPhase(show: (line: string) => void, phase: Phase): void {
  const f = phase.frames;
  show(
    `${phase.name.padEnd(8)}  frames ${f.frames} in ${f.spanS} s (${f.fps} fps) · frame p50 ${f.frameP50Ms} ms, p95 ${f.frameP95Ms} ms, p99 ${f.frameP99Ms} ms, max ${f.frameMaxMs} ms · slow frames (>33 ms) ${f.slowFrames} · long tasks ${f.longTasks}, total ${f.longTaskTotalMs} ms, longest ${f.longTaskMaxMs} ms · sorts ${phase.sorts}` +
      (phase.name === "stream"
        ? ` · heartbeats ${phase.heartbeats.sent} = ${Math.round(phase.heartbeats.sent / f.spanS)}/s (${Object.entries(
            phase.heartbeats.byStatus,
          )
            .map(([status, n]) => `${status}: ${n}`)
            .join(", ")})`
        : ""),
  );
}

export const dashboardScenario: Scenario<DashboardOptions> = {
  name: "dashboard",
  summary:
    "the proctor dashboard with 10,000 candidates in Chromium: frame time and long tasks, with and without an update stream",
  usage: [
    "  --candidates N           candidates in the exam (most written in SQL)                 10000",
    "  --live N                 of those, joined through the API and sending heartbeats       300",
    "  --rate N                 heartbeats a second during the stream phase                    500",
    "  --duration S             seconds of scrolling and sorting per phase                      30",
    "  --build auto|always|never  build the app first                                         auto",
  ].join("\n"),
  options(flags: Flags): DashboardOptions {
    const candidates = flags.number("candidates", 10_000, { min: 10, max: 100_000, isInteger: true });
    return {
      candidates,
      live: flags.number("live", 300, { min: 1, max: Math.min(candidates, 5_000), isInteger: true }),
      rate: flags.number("rate", 500, { min: 1, max: 5_000, isInteger: true }),
      durationS: flags.number("duration", 30, { min: 5, max: 600, isInteger: true }),
      build: flags.choice("build", ["auto", "always", "never"] as const, "auto"),
    };
  },
  async run(options, signal) {
    const env0 = environment();
    const database = await createMigratedDatabase("dashboard");
    const redis = await startPrivateRedis({ signal });
    const appEnv = appEnvironment({ databaseUrl: database.url, redisUrl: redis.url });
    const build = await ensureBuild({ mode: options.build, env: appEnv, signal });
    const app = await startApp({ buildId: build.buildId, env: appEnv, signal });

    const { api, examId, questions } = await createBenchExam({
      port: app.port,
      adminToken: appEnv.ADMIN_API_TOKEN,
      signal,
    });
    const seedStartedAt = performance.now();
    const live = await seedCandidates(api, {
      examId,
      questions,
      count: options.live,
      concurrency: 16,
      signal,
      fill: false,
      prefix: "live",
    });
    await seedInSql(database.url, examId, options.candidates - options.live);
    say(
      `seeded ${options.candidates} candidates (${options.live} live through the API) in ${Math.round(performance.now() - seedStartedAt)} ms`,
    );
    const admin = await createAdmin(database.url);

    const chromium = await launchChromium();
    const problems: string[] = [];
    const phases: Phase[] = [];
    let firstRowsMs: number | null = null;
    try {
      const context = await chromium.browser.newContext({
        baseURL: `http://127.0.0.1:${app.port}`,
        viewport: { width: 1440, height: 900 },
        // The words waited for below are the English dashboard's.
        locale: "en-US",
      });
      const signedIn = await context.request.post("/api/staff/session", { data: admin });
      if (signedIn.status() !== 200) throw new Error(`admin sign-in: ${signedIn.status()} ${await signedIn.text()}`);
      const page = await context.newPage();
      await installFrameProbe(page);
      await page.goto(`/proctor/exams/${examId}`);
      // The dashboard groups digits in its language ("10,000 candidates" in English).
      await page
        .getByText(`${options.candidates.toLocaleString("en-US")} candidates`, { exact: true })
        .waitFor({ timeout: 60_000 });
      await page
        .getByRole("status", { name: "Live updates" })
        .getByText("Live", { exact: true })
        .waitFor({ timeout: 30_000 });
      const first = await takeFrames(page);
      firstRowsMs = first.firstRowsAt === null ? null : Math.round(first.firstRowsAt);
      say(
        `dashboard open: first rows after ${firstRowsMs} ms; ${summariseFrames(first).longTasks} long tasks while loading`,
      );

      const durationMs = options.durationS * 1000;
      say(`baseline: ${options.durationS} s of scrolling and sorting, no updates`);
      await takeFrames(page);
      const baselineSorts = await interact(page, durationMs, signal);
      phases.push({
        name: "baseline",
        frames: summariseFrames(await takeFrames(page)),
        heartbeats: { sent: 0, byStatus: {} },
        sorts: baselineSorts,
      });

      say(
        `stream: ${options.durationS} s of scrolling and sorting with ${options.rate} heartbeats/s over ${live.length} candidates`,
      );
      const loop = heartbeatLoop({ port: app.port, rate: options.rate, candidates: live, signal });
      await takeFrames(page);
      const streamSorts = await interact(page, durationMs, signal);
      const frames = summariseFrames(await takeFrames(page));
      const heartbeats = await loop.stop();
      phases.push({ name: "stream", frames, heartbeats, sorts: streamSorts });
      if (Object.keys(heartbeats.byStatus).some((status) => !status.startsWith("2")))
        problems.push(`heartbeats answered ${JSON.stringify(heartbeats.byStatus)}`);
      const streamState = await page.getByRole("status", { name: "Live updates" }).textContent();
      if (!streamState?.includes("Live")) problems.push(`the stream ended as "${streamState}"`);
      await context.close();
    } finally {
      await chromium.close();
    }

    const { lines, show } = figureLines();
    show(`dashboard: ${options.candidates} candidates, Chromium ${chromium.version}, ${options.durationS} s per phase`);
    show(`time to first rows: ${firstRowsMs ?? "n/a"} ms (navigation start → first data row in the DOM)`);
    for (const phase of phases) printPhase(show, phase);
    const [baseline, stream] = phases;
    if (baseline && stream) {
      show(
        `stream / baseline: frame p50 ${formatRatio(ratio(stream.frames.frameP50Ms, baseline.frames.frameP50Ms))}, p95 ${formatRatio(ratio(stream.frames.frameP95Ms, baseline.frames.frameP95Ms))}, p99 ${formatRatio(ratio(stream.frames.frameP99Ms, baseline.frames.frameP99Ms))}, long-task ms ${formatRatio(ratio(stream.frames.longTaskTotalMs, baseline.frames.longTaskTotalMs))}, fps ${formatRatio(ratio(stream.frames.fps, baseline.frames.fps))}`,
      );
    }
    for (const problem of problems) shout(problem);
    const file = writeResults("dashboard", { environment: env0, options, firstRowsMs, phases, problems, lines });
    say(`results: ${file}`);
    return { isOk: problems.length === 0 };
  },
};
