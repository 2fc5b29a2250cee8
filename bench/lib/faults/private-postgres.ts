// A PostgreSQL cluster of this run's own, for scenarios that restart Postgres under load: the shared
// server on 5432 belongs to everyone on the machine and is never stopped. The system's PostgreSQL
// binaries run as the `postgres` user (initdb and postgres refuse to run as root), on a free port, with a
// data directory in a temporary folder that the cleanup removes.
//
// Durability is what these runs test, so fsync and synchronous_commit stay on: a commit the app
// acknowledged must survive an immediate shutdown (the crash-like one, followed by WAL recovery).
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import pg from "pg";

import { onCleanup } from "../run/cleanup";
import { errorMessage, say, sleep } from "../run/log";
import { freePort, runToCompletion, startChild, type ManagedChild } from "../servers/processes";

const PG_ROOT = "/usr/lib/postgresql";
const OS_USER = "postgres";
const START_TIMEOUT_MS = 60_000;
const SHUTDOWN_TIMEOUT_MS = 30_000;

export type PostgresShutdownMode = "fast" | "immediate";

export type PrivatePostgres = {
  port: number;
  /** The `postgres` maintenance database, as the superuser `postgres` (trust). */
  adminUrl: string;
  url(database: string): string;
  /** The postmaster's pid (a restart changes it). */
  readonly pid: number;
  /**
   * Shuts down (`fast`: SIGINT, clean; `immediate`: SIGQUIT, recovery at the next start), starts again
   * on the same port and returns once it accepts connections, with how long it did not.
   */
  restart(mode: PostgresShutdownMode): Promise<{ downMs: number }>;
  stop(): Promise<void>;
};

/** The newest installed major version's bin directory (e.g. /usr/lib/postgresql/15/bin). */
function binDir(): string {
  const versions = existsSync(PG_ROOT)
    ? readdirSync(PG_ROOT)
        .filter((name) => /^\d+$/.test(name) && existsSync(join(PG_ROOT, name, "bin", "postgres")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) throw new Error(`no PostgreSQL server binaries under ${PG_ROOT}`);
  return join(PG_ROOT, versions[0], "bin");
}

/** Runs `command` as the postgres user when we are root (we are, in this workspace), else as ourselves. */
function asPostgresUser(command: string, args: string[]): { command: string; args: string[] } {
  return process.getuid?.() === 0
    ? { command: "runuser", args: ["-u", OS_USER, "--", command, ...args] }
    : { command, args };
}

function chownToPostgres(path: string): void {
  if (process.getuid?.() !== 0) return;
  const passwd = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((line) => line.startsWith(`${OS_USER}:`));
  const [, , uid, gid] = passwd?.split(":") ?? [];
  if (uid === undefined || gid === undefined) throw new Error(`there is no ${OS_USER} user to run PostgreSQL as`);
  chownSync(path, Number(uid), Number(gid));
}

async function acceptsConnections(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function startPrivatePostgres(options: { signal: AbortSignal }): Promise<PrivatePostgres> {
  const bin = binDir();
  const root = mkdtempSync(join(tmpdir(), `holdfast-bench-pg-${process.pid}-`));
  onCleanup(`remove ${root}`, () => rmSync(root, { recursive: true, force: true }));
  chownToPostgres(root);
  const dataDir = join(root, "data");
  const initdb = asPostgresUser(join(bin, "initdb"), [
    "-D",
    dataDir,
    "-U",
    "postgres",
    "--auth=trust",
    "-E",
    "UTF8",
    "--locale=C.UTF-8",
    "--no-sync",
  ]);
  // --no-sync: only initdb's own files skip the flush; the server below runs with fsync on.
  await runToCompletion({ name: "initdb", ...initdb, env: process.env, cwd: root });

  const port = await freePort();
  const adminUrl = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  const serverArgs = [
    "-D",
    dataDir,
    "-p",
    String(port),
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    `unix_socket_directories=${root}`,
    "-c",
    "fsync=on",
    "-c",
    "synchronous_commit=on",
    "-c",
    "full_page_writes=on",
    "-c",
    "max_connections=300",
    "-c",
    "shared_buffers=256MB",
  ];

  const readPostmasterPid = (): number | null => {
    try {
      const pid = Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
      return Number.isInteger(pid) && pid > 0 ? pid : null;
    } catch {
      return null;
    }
  };

  // The server process of the moment (runuser, whose child is the postmaster) and the postmaster's pid.
  let current: ManagedChild | null = null;
  let postmasterPid = 0;

  // The postmaster alone is signalled (SIGINT fast, SIGQUIT immediate); it ends its backends itself. A
  // SIGTERM to the whole process group, the default for children, would hit every backend directly.
  const shutdown = async (mode: PostgresShutdownMode): Promise<void> => {
    const child = current;
    if (!child) return;
    const pid = postmasterPid || readPostmasterPid();
    if (pid && !child.hasExited()) {
      try {
        process.kill(pid, mode === "immediate" ? "SIGQUIT" : "SIGINT");
      } catch {
        // Already gone.
      }
      await Promise.race([child.exited, sleep(SHUTDOWN_TIMEOUT_MS)]);
    }
    await child.stop();
  };
  // One cleanup for every generation, registered before the first: a restart must not move the server's
  // shutdown ahead of the undo steps of what was created on it later (its databases, the apps using it).
  onCleanup(`shut down private postgres on port ${port}`, () => shutdown("fast"));

  const launch = async (): Promise<void> => {
    const server = asPostgresUser(join(bin, "postgres"), serverArgs);
    postmasterPid = 0;
    const child = startChild({
      name: "postgres",
      ...server,
      env: process.env,
      cwd: root,
      countPatterns: { error: /\b(ERROR|FATAL|PANIC):/ },
      isStoppedByCaller: true,
    });
    current = child;
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await acceptsConnections(adminUrl))) {
      if (child.hasExited())
        throw new Error(`postgres exited while starting on port ${port}:\n${child.tail().slice(-30).join("\n")}`);
      if (options.signal.aborted) throw new Error("stopped");
      if (Date.now() > deadline)
        throw new Error(
          `postgres did not accept connections on port ${port} within ${START_TIMEOUT_MS / 1000} s:\n${child.tail().slice(-30).join("\n")}`,
        );
      await sleep(50, options.signal);
    }
    postmasterPid = readPostmasterPid() ?? child.pid;
  };

  await launch();
  say(`private postgres (pid ${postmasterPid}) accepts connections on 127.0.0.1:${port}, data in ${dataDir}`);

  return {
    port,
    adminUrl,
    url: (database) => `postgresql://postgres@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    get pid() {
      return postmasterPid;
    },
    restart: async (mode) => {
      const stoppedAt = Date.now();
      await shutdown(mode);
      try {
        await launch();
      } catch (error) {
        throw new Error(`private postgres did not come back after a ${mode} shutdown: ${errorMessage(error)}`);
      }
      const downMs = Date.now() - stoppedAt;
      say(`private postgres restarted (${mode}), not accepting connections for ${downMs} ms`);
      return { downMs };
    },
    stop: () => shutdown("fast"),
  };
}
