import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, readlinkSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";

// A second app instance for the specs that kill a server: the suite's own server (scripts/e2e-server.mjs)
// is shared by every spec and must stay up. The second instance is a sibling in a cluster: the same build
// copy, database, Redis and secrets as the suite's server (so a join token works on either), on its own
// port. It is found through the suite's state file: the pid written there is the e2e-server script, whose
// child is the running `next start` — its working directory is the private build copy and its environment
// is the app's. (The state file carries no APP_SECRET and no build directory; see the report on issue 4.)

const HOST = "127.0.0.1";
const START_PATIENCE_MS = 60_000;

type SuiteState = { pid?: number };

export type SecondServer = {
  readonly baseURL: string;
  /** Starts the instance (again) on its port and waits until /api/health answers. */
  start: () => Promise<void>;
  /** SIGKILL: no shutdown hooks, no draining — the process is gone mid-request. */
  kill: () => Promise<void>;
  /** Kills the instance for good (afterAll). */
  stop: () => Promise<void>;
};

function readSuiteState(): SuiteState {
  const path = fileURLToPath(new URL("../.artifacts/e2e-server.json", import.meta.url));
  return JSON.parse(readFileSync(path, "utf8")) as SuiteState;
}

function childPids(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return text ? text.split(/\s+/).map(Number) : [];
}

function readEnviron(pid: number): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of readFileSync(`/proc/${pid}/environ`, "utf8").split("\0")) {
    const at = entry.indexOf("=");
    if (at > 0) env[entry.slice(0, at)] = entry.slice(at + 1);
  }
  return env;
}

/**
 * The suite's running app: its build copy and the environment it was started with. `databaseUrl` is the
 * one the fixtures use, so a state file rewritten by another run in the same checkout is not followed.
 */
function findSuiteApp(databaseUrl: string): { buildDir: string; env: Record<string, string> } {
  const { pid } = readSuiteState();
  if (!pid) throw new Error("e2e-server.json names no pid: cannot find the suite's app server");
  for (const child of childPids(pid)) {
    const env = readEnviron(child);
    if (!env.APP_SECRET || !env.DATABASE_URL) continue;
    if (env.DATABASE_URL !== databaseUrl) {
      throw new Error("e2e-server.json now describes another run's server (another suite runs in this checkout)");
    }
    return { buildDir: readlinkSync(`/proc/${child}/cwd`), env };
  }
  throw new Error(`the e2e server (pid ${pid}) has no running app child`);
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolvePort(address.port) : reject(new Error("no port")),
      );
    });
  });
}

async function isHealthy(baseURL: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseURL}/api/health`, { signal: AbortSignal.timeout(2_000) });
    return response.ok;
  } catch {
    return false;
  }
}

/** Starts a sibling of the suite's server whose database is `databaseUrl` (the `server` fixture's). */
export async function launchSecondServer(databaseUrl: string): Promise<SecondServer> {
  const { buildDir, env } = findSuiteApp(databaseUrl);
  const port = await freePort();
  const baseURL = `http://${HOST}:${port}`;
  const nextBin = join(buildDir, "node_modules", "next", "dist", "bin", "next");
  let child: ChildProcess | undefined;
  let output = "";

  // If the worker dies without afterAll, the instance must not outlive it.
  const killOnExit = () => {
    if (child?.pid && child.exitCode === null && child.signalCode === null) process.kill(child.pid, "SIGKILL");
  };
  process.once("exit", killOnExit);

  const kill = async () => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolveExit) => running.once("exit", resolveExit));
    running.kill("SIGKILL");
    await exited;
  };

  const start = async () => {
    await kill();
    output = "";
    const started = spawn(
      process.execPath,
      [nextBin, "start", buildDir, "--port", String(port), "--hostname", HOST, "--keepAliveTimeout", "65000"],
      {
        cwd: buildDir,
        env: { ...env, APP_URL: baseURL, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    child = started;
    started.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    started.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    const giveUpAt = Date.now() + START_PATIENCE_MS;
    while (!(await isHealthy(baseURL))) {
      if (started.exitCode !== null || started.signalCode !== null) {
        throw new Error(`the second app instance exited while starting:\n${output}`);
      }
      if (Date.now() > giveUpAt) {
        await kill();
        throw new Error(`the second app instance did not become healthy in ${START_PATIENCE_MS} ms:\n${output}`);
      }
      await sleep(200);
    }
  };

  const stop = async () => {
    await kill();
    process.off("exit", killOnExit);
  };

  try {
    await start();
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseURL, start, kill, stop };
}
