// The app server for the Playwright suite (playwright.config.ts starts it through `webServer`).
//
// 1. Cleans up after runs that were killed (their pid is gone): their databases and build copies.
// 2. Creates a fresh database, holdfast_e2e_<pid>_<random>, on the Postgres at TEST_DATABASE_ADMIN_URL
//    (default postgresql://postgres@127.0.0.1:5432/postgres), and applies the committed migrations.
// 3. Builds the app (`next build`; E2E_SKIP_BUILD=1 reuses the last build), then copies the build to a
//    private directory and runs `next start` from there on E2E_PORT (default 3100), with a random
//    APP_SECRET and ADMIN_API_TOKEN. The copy keeps the server whole when someone rebuilds the shared
//    .next while the suite runs (`npm run demo`, another engineer); Next allows one build at a time per
//    project, so a build that finds another one running waits for it and tries again.
// 4. Writes what the tests need to reach that server (URL, database, token) to e2e/.artifacts/e2e-server.json,
//    which e2e/fixtures.ts reads in every worker. This also works when Playwright reuses a server started by hand.
//    The app's stdout and stderr go to e2e/.artifacts/app-server.log (stderr also to this process's, which
//    Playwright shows), and the secrets it was given to e2e/.artifacts/e2e-secrets.json: after the run,
//    scripts/scan-e2e-log.mjs checks that the log holds none of them (docs/security.md, "No secrets in logs").
// 5. On SIGTERM, SIGINT or SIGHUP (Playwright stops it with SIGTERM), stops the app, drops the database and
//    removes the copy.
//
// Plain Node ESM, run before anything is built. It sets the app's environment for its children; the app
// itself still reads its environment only through lib/server/env.mjs.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";

import { withSchemaEngine } from "./prisma-engine.mjs";
import { RUNTIME_FILES } from "./start/runtime-files.mjs";
import {
  createDatabase,
  databaseUrl as scratchDatabaseUrl,
  dropAbandonedDatabases,
  dropDatabase,
  ownerIsGone,
  scratchName,
} from "./scratch-database.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const statePath = join(root, "e2e", ".artifacts", "e2e-server.json");
const appLogPath = join(root, "e2e", ".artifacts", "app-server.log");
const secretsPath = join(root, "e2e", ".artifacts", "e2e-secrets.json");
const nextBin = join(root, "node_modules", "next", "dist", "bin", "next");
const prismaBin = join(root, "node_modules", "prisma", "build", "index.js");
const DATABASE_PREFIX = "holdfast_e2e_";
const COPY_PREFIX = "holdfast-e2e-";
const BUILD_LOCKED = /Another next build process is already running/;
const BUILD_LOCK_PATIENCE_MS = 5 * 60_000;

const port = Number(process.env.E2E_PORT || "3100");
const host = "127.0.0.1";
const baseURL = `http://${host}:${port}`;
const skipBuild = process.env.E2E_SKIP_BUILD === "1";

const databaseName = scratchName(DATABASE_PREFIX);
const databaseUrl = scratchDatabaseUrl(databaseName);

/** @type {import("node:child_process").ChildProcess | undefined} */
let child;
/** @type {string | undefined} */
let buildCopy;
let isStopping = false;
let isDatabaseCreated = false;
/** Settles once app-server.log is written out (the scan after the run reads it). */
let appLogClosed = Promise.resolve();

/** @param {string} message */
function say(message) {
  process.stderr.write(`e2e-server: ${message}\n`);
}

async function cleanUpAbandonedRuns() {
  for (const datname of await dropAbandonedDatabases(DATABASE_PREFIX)) {
    say(`dropped ${datname}, left behind by a run that was killed`);
  }
  for (const name of readdirSync(tmpdir())) {
    if (name.startsWith(COPY_PREFIX) && ownerIsGone(name, COPY_PREFIX))
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

async function createOwnDatabase() {
  await createDatabase(databaseName);
  isDatabaseCreated = true;
  say(`created database ${databaseName}`);
}

async function dropOwnDatabase() {
  if (!isDatabaseCreated) return;
  await dropDatabase(databaseName);
  isDatabaseCreated = false;
  say(`dropped database ${databaseName}`);
}

/**
 * Runs a Node script to completion, as the current child (so a stop signal reaches it). Its output is
 * kept back and returned: a passing build's route table is noise in a test report, a failing one's is not.
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<{ code: number; output: string }>}
 */
function run(args, env) {
  return new Promise((resolvePromise, reject) => {
    /** @type {Buffer[]} */
    const output = [];
    child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout?.on("data", (chunk) => output.push(chunk));
    child.stderr?.on("data", (chunk) => output.push(chunk));
    child.once("error", reject);
    child.once("close", (code, signal) => {
      child = undefined;
      resolvePromise({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(output).toString("utf8") });
    });
  });
}

/**
 * @param {string} what
 * @param {{ code: number; output: string }} result
 */
function requireSuccess(what, result) {
  if (result.code === 0 || isStopping) return;
  process.stderr.write(result.output);
  throw new Error(`${what} failed`);
}

/** @param {NodeJS.ProcessEnv} env */
async function build(env) {
  if (skipBuild && existsSync(join(root, ".next", "BUILD_ID"))) {
    say("E2E_SKIP_BUILD=1: reusing the last build");
    return;
  }
  const giveUpAt = Date.now() + BUILD_LOCK_PATIENCE_MS;
  for (;;) {
    say("building the app (next build)");
    // Plain text, so the lock message below can be recognised whatever colours the terminal asked for.
    const result = await run([nextBin, "build"], { ...env, NODE_ENV: "production", NO_COLOR: "1" });
    if (result.code !== 0 && BUILD_LOCKED.test(result.output) && Date.now() < giveUpAt && !isStopping) {
      say("another next build is running in this project; waiting for it");
      await sleep(10_000);
      continue;
    }
    requireSuccess("next build", result);
    return;
  }
}

/** @param {string} dir */
function readBuildId(dir) {
  const file = join(dir, ".next", "BUILD_ID");
  return existsSync(file) ? readFileSync(file, "utf8").trim() : null;
}

/** Copies the build (without caches) and what `next start` reads next to it into a private directory. */
function copyBuild() {
  const buildId = readBuildId(root);
  if (!buildId) throw new Error(".next/BUILD_ID is missing after the build");
  const dir = mkdtempSync(join(tmpdir(), `${COPY_PREFIX}${process.pid}-`));
  buildCopy = dir;
  const skipped = new Set(["cache", "trace", "dev", "diagnostics"].map((name) => join(root, ".next", name)));
  cpSync(join(root, ".next"), join(dir, ".next"), {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => !skipped.has(source),
  });
  for (const file of RUNTIME_FILES) cpSync(join(root, file), join(dir, file), { recursive: true });
  if (existsSync(join(root, "public"))) cpSync(join(root, "public"), join(dir, "public"), { recursive: true });
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  if (readBuildId(dir) !== buildId || readBuildId(root) !== buildId) {
    throw new Error(".next changed while it was being copied (another build finished meanwhile); run the suite again");
  }
  return dir;
}

/**
 * Runs the app server in the foreground; all its output goes to app-server.log, its stderr also to this
 * process's (Playwright shows stderr).
 * @param {string} dir
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<number>}
 */
function serve(dir, env) {
  const appLog = createWriteStream(appLogPath, { flags: "w", mode: 0o600 });
  appLogClosed = new Promise((resolveClosed) => appLog.once("close", resolveClosed));
  return new Promise((resolvePromise, reject) => {
    // Idle keep-alive connections stay open for 65 s, not Node's 5 s: a test's API client that reuses a
    // connection just as the server closes it would see "socket hang up" on a request that never arrived.
    child = spawn(
      process.execPath,
      // One worker as `npm start` runs it (scripts/start/worker.mjs: Next.js, with the candidate's sync requests
      // answered before Next's routing, ADR 023), so every spec goes through the production server's paths.
      [
        join(dir, "scripts", "start", "worker.mjs"),
        "start",
        dir,
        "--port",
        String(port),
        "--hostname",
        host,
        "--keepAliveTimeout",
        "65000",
      ],
      {
        cwd: dir,
        // Strict (ADR 026): a build whose fast routes the worker cannot load stops the suite, instead of every
        // spec passing through Next's slower path unseen.
        env: { ...env, NODE_ENV: "production", HOLDFAST_FAST_PATH_STRICT: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    child.stdout?.pipe(appLog, { end: false });
    child.stderr?.on("data", (chunk) => {
      appLog.write(chunk);
      process.stderr.write(chunk);
    });
    child.once("error", reject);
    child.once("close", (code, signal) => {
      child = undefined;
      appLog.end(() => resolvePromise(code ?? (signal ? 1 : 0)));
    });
  });
}

/** @param {number} code */
async function shutdown(code) {
  if (isStopping) return;
  isStopping = true;
  if (child && child.exitCode === null && child.signalCode === null) {
    const running = child;
    const exited = new Promise((resolvePromise) => running.once("exit", resolvePromise));
    running.kill("SIGTERM");
    const timer = setTimeout(() => running.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  }
  // A grandchild still holding the app's pipes must not keep the database from being dropped.
  await Promise.race([appLogClosed, sleep(5_000)]);
  rmSync(statePath, { force: true });
  if (buildCopy) rmSync(buildCopy, { recursive: true, force: true });
  try {
    await dropOwnDatabase();
  } catch (error) {
    say(`could not drop ${databaseName}: ${error instanceof Error ? error.message : String(error)}`);
    code = code || 1;
  }
  process.exit(code);
}

for (const signal of /** @type {const} */ (["SIGTERM", "SIGINT", "SIGHUP"])) {
  process.on(signal, () => void shutdown(0));
}

async function main() {
  await cleanUpAbandonedRuns();
  await createOwnDatabase();

  // The Prisma CLI needs a schema engine it cannot download here; prisma-engine.mjs decides which.
  const env = withSchemaEngine({
    ...process.env,
    DATABASE_URL: databaseUrl,
    APP_SECRET: randomBytes(32).toString("base64url"),
    ADMIN_API_TOKEN: randomBytes(32).toString("base64url"),
    APP_URL: baseURL,
    // Every sign-in of a test run comes from 127.0.0.1; the per-address limit is tested in integration.
    SIGN_IN_LIMIT_PER_ADDRESS: "100000",
    // A webhook delivery to a failing receiver dies after three one-second retries (e2e/admin/webhooks.spec.ts),
    // not the production schedule's hours.
    WEBHOOK_RETRY_SCHEDULE: "1,1,1",
    NEXT_TELEMETRY_DISABLED: "1",
  });

  say("applying migrations");
  requireSuccess("prisma migrate deploy", await run([prismaBin, "migrate", "deploy"], env));
  if (isStopping) return;
  await build(env);
  if (isStopping) return;
  const dir = copyBuild();

  mkdirSync(dirname(statePath), { recursive: true });
  writeFileSync(
    secretsPath,
    `${JSON.stringify({ APP_SECRET: env.APP_SECRET, ADMIN_API_TOKEN: env.ADMIN_API_TOKEN }, null, 2)}\n`,
    { mode: 0o600 },
  );
  writeFileSync(
    statePath,
    `${JSON.stringify({ baseURL, databaseUrl, adminApiToken: env.ADMIN_API_TOKEN, pid: process.pid }, null, 2)}\n`,
    { mode: 0o600 },
  );

  say(`starting the app on ${baseURL}`);
  const code = await serve(dir, env);
  if (!isStopping) {
    say(`the app exited on its own (code ${code})`);
    await shutdown(code || 1);
  }
}

main().catch(async (error) => {
  say(error instanceof Error ? error.message : String(error));
  await shutdown(1);
});
