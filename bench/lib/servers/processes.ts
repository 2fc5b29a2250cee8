// Child processes of a run: servers that live for the whole run, and commands run to completion.
// Each child leads its own process group, so stopping it also stops whatever it spawned, and a
// Ctrl-C in the terminal reaches only this process, which stops the children in order.
import { spawn, type ChildProcess } from "node:child_process";
import { get } from "node:http";
import { createServer } from "node:net";

import { onCleanup } from "../run/cleanup";
import { sleep } from "../run/log";

const TAIL_LINES = 200;
const STOP_GRACE_MS = 10_000;

export type ManagedChild = {
  name: string;
  pid: number;
  /** The last lines of its output, for error reports. */
  tail(): string[];
  /** Counts output lines matching each pattern since the last reset. */
  lineCounts(): Record<string, number>;
  resetLineCounts(): void;
  hasExited(): boolean;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
};

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

/**
 * Starts a long-lived child. Its output is kept (last lines) and, with `echo`, shown prefixed with
 * its name. `countPatterns` counts matching lines (e.g. error logs) for the report.
 */
export function startChild(options: {
  name: string;
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  echo?: boolean;
  countPatterns?: Record<string, RegExp>;
  /**
   * The caller registers the cleanup that stops it (e.g. one cleanup for every generation of a server
   * it restarts, so the run is undone in the order things were first created), and calls `stop()`.
   */
  isStoppedByCaller?: boolean;
}): ManagedChild {
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (child.pid === undefined) throw new Error(`could not start ${options.name}`);
  const pid = child.pid;
  const lines: string[] = [];
  const patterns = Object.entries(options.countPatterns ?? {});
  let counts: Record<string, number> = {};
  let partial = "";
  const onData = (chunk: Buffer): void => {
    const text = partial + chunk.toString("utf8");
    const parts = text.split("\n");
    partial = parts.pop() ?? "";
    for (const line of parts) {
      lines.push(line);
      if (lines.length > TAIL_LINES) lines.shift();
      for (const [key, pattern] of patterns) if (pattern.test(line)) counts[key] = (counts[key] ?? 0) + 1;
      if (options.echo) process.stderr.write(`[${options.name}] ${line}\n`);
    }
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);

  let isExited = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => {
      isExited = true;
      resolve({ code, signal });
    });
    child.once("error", () => {
      isExited = true;
      resolve({ code: null, signal: null });
    });
  });

  const stop = async (): Promise<void> => {
    if (!isExited) {
      signalGroup(child, "SIGTERM");
      // A stopped (SIGSTOP) group keeps SIGTERM pending until it runs again: a paused fault target
      // must still stop within the grace period.
      signalGroup(child, "SIGCONT");
    }
    const timedOut = await Promise.race([exited.then(() => false), sleep(STOP_GRACE_MS).then(() => true)]);
    // Also after a clean exit of the leader: a grandchild may still hold the group.
    signalGroup(child, timedOut ? "SIGKILL" : "SIGTERM");
    if (timedOut) await exited;
  };
  const runEarly = options.isStoppedByCaller ? stop : onCleanup(`stop ${options.name} (pid ${pid})`, stop);

  return {
    name: options.name,
    pid,
    tail: () => [...lines, ...(partial ? [partial] : [])],
    lineCounts: () => ({ ...counts }),
    resetLineCounts: () => {
      counts = {};
    },
    hasExited: () => isExited,
    exited,
    stop: runEarly,
  };
}

/** Runs a command to completion (stoppable by the cleanup); throws with its output tail if it fails. */
export async function runToCompletion(options: {
  name: string;
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  echo?: boolean;
}): Promise<void> {
  const child = startChild(options);
  const { code, signal } = await child.exited;
  await child.stop();
  if (code !== 0) {
    const tail = child.tail().slice(-60).join("\n");
    throw new Error(`${options.name} failed (${signal ?? `exit code ${code}`}):\n${tail}`);
  }
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === "object") resolve(address.port);
        else reject(new Error("no port"));
      });
    });
  });
}

const PROBE_TIMEOUT_MS = 2_000;

/**
 * One GET on a fresh connection (never a pooled one: the port may belong to a process that was just
 * killed and started again), settled within `timeoutMs` whatever the socket does. The status, or why
 * there was none. (Node 20's fetch was seen to hang here after an instance on the same port was killed,
 * with no socket left and its AbortSignal.timeout never firing, which froze a chaos run.)
 */
export function probeOnce(port: number, path: string, timeoutMs: number): Promise<number | string> {
  return new Promise((resolve) => {
    const request = get({ host: "127.0.0.1", port, path, agent: false }, (response) => {
      response.resume();
      response.on("end", () => settle(response.statusCode ?? 0));
      response.on("error", (error) => settle(error.message));
    });
    const timer = setTimeout(() => {
      request.destroy();
      settle(`no answer within ${timeoutMs} ms`);
    }, timeoutMs);
    function settle(outcome: number | string): void {
      clearTimeout(timer);
      resolve(outcome);
    }
    request.on("error", (error) => settle(error.message));
  });
}

/** Polls `http://127.0.0.1:{port}{path}` until it answers 200, the child dies, or time runs out. */
export async function waitForHttp(options: {
  port: number;
  path: string;
  child: ManagedChild;
  timeoutMs: number;
  signal: AbortSignal;
}): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let lastError = "no answer yet";
  while (Date.now() < deadline && !options.signal.aborted) {
    if (options.child.hasExited()) {
      throw new Error(`${options.child.name} exited while starting:\n${options.child.tail().slice(-60).join("\n")}`);
    }
    const status = await probeOnce(options.port, options.path, PROBE_TIMEOUT_MS);
    if (status === 200) return;
    lastError = typeof status === "number" ? `status ${status}` : status;
    await sleep(250, options.signal);
  }
  if (options.signal.aborted) throw new Error("stopped");
  throw new Error(
    `${options.child.name} did not answer ${options.path} within ${options.timeoutMs / 1000} s (${lastError}):\n${options.child.tail().slice(-40).join("\n")}`,
  );
}
