// `npm run bench -- webhook-outage`: a whole cohort submits at once while the results receiver is down (issue 16).
//
// 1. A private database, migrated; a receiver on 127.0.0.1 in this process that answers 503 for --down seconds
//    from the submits, then 200, and records every request (time, webhook-id, status it got).
// 2. --workers delivery worker processes, each as an app instance starts its own (delivery-worker.ts), with
//    the breaker's cool-down --cooldown and a retry schedule that reaches past the outage.
// 3. A driver process (bench/lib/webhooks/webhooks-child.ts) seeds --candidates attempts in progress, adds the
//    endpoint, and submits every attempt at once through the freeze: each submit's transaction writes its delivery.
// 4. Waits until every delivery is delivered (or --budget seconds after the receiver is back), then checks: none
//    lost, none answered 2xx twice, and the requests per second that reached the receiver while it was down.
//    Figures in bench/results/webhook-outage-<time>.json and docs/benchmarks/log/results-and-webhook-outage.md.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

import pg from "pg";

import type { Flags } from "../lib/run/args";
import { onCleanup } from "../lib/run/cleanup";
import { say, shout, sleep } from "../lib/run/log";
import { environment, writeResults } from "../lib/reporting/report";
import type { Scenario } from "../lib/run/scenario";
import { createMigratedDatabase, PROJECT_ROOT } from "../lib/servers/database";
import { startChild, type ManagedChild } from "../lib/servers/processes";

export type WebhookOutageOptions = {
  candidates: number;
  downSeconds: number;
  workers: number;
  cooldownSeconds: number;
  budgetSeconds: number;
};

const CHILD = join(PROJECT_ROOT, "bench", "lib", "webhooks", "webhooks-child.ts");

function startTask(name: string, task: object, env: NodeJS.ProcessEnv): ManagedChild {
  return startChild({
    name,
    command: process.execPath,
    args: ["--import", "tsx", "--conditions=react-server", CHILD, JSON.stringify(task)],
    env,
    cwd: PROJECT_ROOT,
  });
}

function resultLine(child: ManagedChild): unknown {
  const line = child
    .tail()
    .reverse()
    .find((text) => text.startsWith("RESULT "));
  return line === undefined ? undefined : JSON.parse(line.slice("RESULT ".length));
}

export const webhookOutageScenario: Scenario<WebhookOutageOptions> = {
  name: "webhook-outage",
  summary: "a cohort submits while the results receiver is down: nothing lost, the receiver not hammered",
  usage: [
    "  --candidates N           attempts submitted at once                               500",
    "  --down S                 seconds the receiver answers 503 from the submits           60",
    "  --workers N              delivery worker processes (app instances)                   2",
    "  --cooldown S             how long an open breaker waits before one probe             10",
    "  --budget S               everything delivered within S seconds of the recovery       120",
  ].join("\n"),

  options(flags: Flags): WebhookOutageOptions {
    return {
      candidates: flags.number("candidates", 500, { min: 1, max: 50_000, isInteger: true }),
      downSeconds: flags.number("down", 60, { min: 0, max: 3600 }),
      workers: flags.number("workers", 2, { min: 1, max: 16, isInteger: true }),
      cooldownSeconds: flags.number("cooldown", 10, { min: 1, max: 600 }),
      budgetSeconds: flags.number("budget", 120, { min: 1, max: 3600 }),
    };
  },

  async run(options, signal) {
    // 1.
    const database = await createMigratedDatabase("webhooks");
    let downUntil = Number.POSITIVE_INFINITY;
    const requests: { at: number; id: string; status: number }[] = [];
    const server = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        const status = Date.now() < downUntil ? 503 : 200;
        requests.push({ at: Date.now(), id: String(request.headers["webhook-id"] ?? ""), status });
        response.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    onCleanup("webhook receiver", () => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const env = {
      ...process.env,
      NODE_ENV: "production" as const,
      DATABASE_URL: database.url,
      APP_SECRET: randomBytes(32).toString("base64url"),
    };

    // 2.
    const workerOptions = {
      intervalMs: 1_000,
      breakerCooldownMs: options.cooldownSeconds * 1000,
      // Waits that reach past the outage: 1, 2, 4 … 30 s, then every 30 s (each drawn with full jitter).
      schedule: [1, 2, 4, 8, 15, ...Array<number>(40).fill(30)],
    };
    const workers: ManagedChild[] = [];
    for (let n = 1; n <= options.workers; n++) {
      const worker = startTask(`delivery worker ${n}`, { task: "worker", options: workerOptions }, env);
      workers.push(worker);
      while (resultLine(worker) === undefined) {
        if (worker.hasExited()) throw new Error(`worker ${n} exited:\n${worker.tail().slice(-30).join("\n")}`);
        await sleep(50);
      }
    }
    if (signal.aborted) return { isOk: false };

    // 3.
    const started = Date.now();
    downUntil = started + options.downSeconds * 1000;
    const driver = startTask("cohort", { task: "cohort", candidates: options.candidates, url, concurrency: 16 }, env);
    const { code } = await driver.exited;
    const cohort = resultLine(driver) as { endpointId: string; submitSeconds: number } | undefined;
    await driver.stop();
    if (code !== 0 || !cohort) throw new Error(`the cohort failed:\n${driver.tail().slice(-30).join("\n")}`);
    say(
      `${options.candidates} submits in ${cohort.submitSeconds.toFixed(2)} s; receiver down until +${options.downSeconds} s`,
    );

    // 4.
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    onCleanup("webhook pool", () => pool.end());
    const deadline = downUntil + options.budgetSeconds * 1000;
    let counts: Record<string, number> = {};
    while (!signal.aborted && Date.now() < deadline) {
      const rows = await pool.query<{ status: string; n: number }>(
        `SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1::uuid GROUP BY status`,
        [cohort.endpointId],
      );
      counts = Object.fromEntries(rows.rows.map((row) => [row.status, row.n]));
      if ((counts.delivered ?? 0) === options.candidates) break;
      await sleep(500);
    }
    const finished = Date.now();
    for (const worker of workers) await worker.stop();
    const breakers = await pool.query(`SELECT state, consecutive_failures FROM webhook_breakers`);

    const duringOutage = requests.filter((request) => request.at < downUntil);
    const firstAt = duringOutage[0]?.at ?? started;
    const perSecond = new Map<number, number>();
    for (const request of duringOutage) {
      const second = Math.floor((request.at - firstAt) / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    }
    // The first wave goes out before anyone knows the receiver is down (at most a claim's batch per worker); it
    // trips the shared breaker, and after it only probes should arrive: about one per cool-down, whatever the
    // number of workers.
    const WAVE_MS = 1_500;
    const afterTrip = duringOutage.filter((request) => request.at - firstAt >= WAVE_MS);
    const maxPerSecondAfterTrip = Math.max(
      0,
      ...[...perSecond.entries()].filter(([second]) => second >= 2).map(([, n]) => n),
    );
    const okById = new Map<string, number>();
    for (const request of requests)
      if (request.status === 200) okById.set(request.id, (okById.get(request.id) ?? 0) + 1);
    const twice = [...okById.values()].filter((n) => n > 1).length;
    const delivered = counts.delivered ?? 0;
    const drainSeconds = (finished - Math.max(downUntil, started)) / 1000;
    const probeAllowance = Math.ceil(options.downSeconds / options.cooldownSeconds) + 2;

    say(
      `requests while down:      ${duringOutage.length} (first wave, ${WAVE_MS / 1000} s: ${duringOutage.length - afterTrip.length})`,
    );
    say(
      `after the first wave:     ${afterTrip.length} requests, at most ${maxPerSecondAfterTrip}/s (allowance ${probeAllowance} probes)`,
    );
    say(
      `after the recovery:       ${requests.length - duringOutage.length} requests, all delivered in ${drainSeconds.toFixed(1)} s`,
    );
    say(`deliveries:               ${JSON.stringify(counts)}; 2xx twice for one id: ${twice}`);
    say(`breakers at the end:      ${JSON.stringify(breakers.rows)}`);
    const problems: string[] = [];
    if (delivered !== options.candidates) problems.push(`${options.candidates - delivered} deliveries not delivered`);
    if (twice > 0) problems.push(`${twice} deliveries answered 2xx more than once`);
    if (afterTrip.length > probeAllowance)
      problems.push(`${afterTrip.length} requests reached the receiver while open`);
    say(
      `${problems.length === 0 ? "PASS" : "FAIL"}: no loss, no double delivery, receiver spared while the breaker was open`,
    );

    const file = writeResults("webhook-outage", {
      options,
      environment: environment(),
      submitSeconds: cohort.submitSeconds,
      requestsWhileDown: duringOutage.length,
      requestsFirstWave: duringOutage.length - afterTrip.length,
      requestsAfterTrip: afterTrip.length,
      maxPerSecondAfterTrip,
      probeAllowance,
      requestsPerSecondWhileDown: Object.fromEntries(perSecond),
      requestsAfterRecovery: requests.length - duringOutage.length,
      drainSeconds,
      counts,
      twice,
      problems,
    });
    say(`results: ${file}`);
    for (const problem of problems) shout(problem);
    return { isOk: problems.length === 0 };
  },
};
