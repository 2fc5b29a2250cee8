// Runs a task of bench/lib/results/results-child.ts in its own Node process, with the app's environment, and
// hands back the `RESULT` line it printed. Workers are started the same way and live until stopped.
import { randomBytes } from "node:crypto";
import { join } from "node:path";

import { PROJECT_ROOT } from "../servers/database";
import { startChild, type ManagedChild } from "../servers/processes";
import { sleep } from "../run/log";

const CHILD = join(PROJECT_ROOT, "bench", "lib", "results", "results-child.ts");

/** What the app reads from its environment, for a child on the run's database. */
export function childEnvironment(databaseUrl: string, adminToken: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    APP_SECRET: randomBytes(32).toString("base64url"),
    ADMIN_API_TOKEN: adminToken,
  };
}

function start(name: string, task: object, env: NodeJS.ProcessEnv, nodeFlags: string[] = []): ManagedChild {
  return startChild({
    name,
    command: process.execPath,
    args: [...nodeFlags, "--import", "tsx", "--conditions=react-server", CHILD, JSON.stringify(task)],
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

/** Runs one task to its end and returns what it reported; throws with its output when it fails. */
export async function runResultsTask<T>(
  name: string,
  task: object,
  env: NodeJS.ProcessEnv,
  nodeFlags: string[] = [],
): Promise<T> {
  const child = start(name, task, env, nodeFlags);
  const { code, signal } = await child.exited;
  await child.stop();
  const result = resultLine(child);
  if (code !== 0 || result === undefined) {
    throw new Error(`${name} failed (${signal ?? `exit code ${code}`}):\n${child.tail().slice(-40).join("\n")}`);
  }
  return result as T;
}

/** Starts a results worker process (as an app instance starts its own) and waits until it runs. */
export async function startResultsWorkerProcess(name: string, env: NodeJS.ProcessEnv): Promise<ManagedChild> {
  const child = start(name, { task: "worker" }, env);
  for (let waited = 0; resultLine(child) === undefined; waited += 50) {
    if (child.hasExited()) throw new Error(`${name} exited:\n${child.tail().slice(-40).join("\n")}`);
    if (waited > 60_000) throw new Error(`${name} did not start within a minute`);
    await sleep(50);
  }
  return child;
}
