// `npm start`: Holdfast's production server on every core. The primary process forks HOLDFAST_WORKERS
// workers (default: one per core when Redis is there, else 1; scripts/start/workers.mjs) that each run
// Next.js (scripts/start/worker.mjs: Next as a custom server that answers the candidate's sync requests
// before Next's routing, ADR 023); node:cluster lets them share one port. A worker that dies is started
// again after a backoff; SIGTERM/SIGINT are passed to every worker for a graceful stop.
//
// `HOLDFAST_WORKERS=1` runs one worker. Arguments are `next start`'s (`-p 3000`); with any but -p, -H and
// --keepAliveTimeout, or with HOLDFAST_FAST_SYNC=0, each worker is Next's own `next start`.
// Background jobs (the deadline sweeper, the results queue, webhook deliveries) run in every worker as
// they run in every instance: each takes its work under a lock or a lease in Postgres (docs/scaling.md,
// ADR 019).
import cluster from "node:cluster";
import { connect } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { restartDelayMs, workerCount, workerEnvironment, workerNodeArgs } from "./start/workers.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** Next.js as a custom server that answers the candidate's sync requests before Next's routing (ADR 023). */
const WORKER = join(root, "scripts", "start", "worker.mjs");
/** A worker that does not exit this long after SIGTERM is killed. */
const STOP_GRACE_MS = 30_000;
/** A death more than this long after the previous one starts the backoff again. */
const CALM_MS = 60_000;

/** @param {string} line */
function say(line) {
  console.log(`holdfast: ${line}`);
}

/**
 * Whether a Redis answers where the app will look for one (REDIS_URL, else 127.0.0.1:6379 as the app
 * probes it). A configured REDIS_URL counts as there: the app itself says so if it is not.
 *
 * @returns {Promise<boolean>}
 */
function hasRedis() {
  if (process.env.REDIS_URL) return Promise.resolve(true);
  return new Promise((done) => {
    const socket = connect({ host: "127.0.0.1", port: 6379 });
    const finish = (/** @type {boolean} */ answer) => {
      socket.destroy();
      done(answer);
    };
    socket.setTimeout(500, () => finish(false));
    socket.once("error", () => finish(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => finish(data.toString().startsWith("+PONG")));
  });
}

async function main() {
  let plan;
  try {
    plan = workerCount({ value: process.env.HOLDFAST_WORKERS, hasRedis: await hasRedis() });
  } catch (error) {
    console.error(`holdfast: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
  const { workers, reason } = plan;
  const env = workerEnvironment(process.env, workers);
  say(`starting ${workers} Next.js worker${workers === 1 ? "" : "s"} (${reason}), primary pid ${process.pid}`);
  // HOLDFAST_WORKER_PROGRAM replaces Next.js in each worker: only the supervisor's own test
  // (scripts/start.int.test.ts) sets it, to kill workers of a tiny server without a build.
  const program = process.env.HOLDFAST_WORKER_PROGRAM || WORKER;
  cluster.setupPrimary({
    exec: program,
    args: ["start", ...process.argv.slice(2)],
    execArgv: [
      ...process.execArgv,
      ...workerNodeArgs({ nodeOptions: process.env.NODE_OPTIONS, execArgv: process.execArgv }),
    ],
  });

  let isStopping = false;
  let deaths = 0;
  let lastDeathAt = 0;
  const fork = () => cluster.fork(env);

  cluster.on("exit", (worker, code, signal) => {
    if (isStopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    const now = Date.now();
    deaths = now - lastDeathAt > CALM_MS ? 1 : deaths + 1;
    lastDeathAt = now;
    const delay = restartDelayMs(deaths);
    say(`worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another in ${delay / 1000} s`);
    setTimeout(() => {
      if (!isStopping) fork();
    }, delay);
  });

  const stop = (/** @type {NodeJS.Signals} */ signal) => {
    if (isStopping) return;
    isStopping = true;
    const running = Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);
    say(`${signal}: stopping ${running.length} worker(s)`);
    if (running.length === 0) process.exit(0);
    for (const worker of running) worker.process.kill(signal);
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
      process.exit(1);
    }, STOP_GRACE_MS).unref();
  };
  for (const signal of /** @type {const} */ (["SIGTERM", "SIGINT", "SIGHUP"])) process.on(signal, () => stop(signal));

  for (let index = 0; index < workers; index += 1) fork();
}

void main();
