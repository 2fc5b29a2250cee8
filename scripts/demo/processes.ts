// Child processes and ports for the demo.
//
// Every child runs in its own process group (detached) and is stopped by signalling that group. Two
// reasons: `next build` and `next start` may fork workers, which must go down with them; and Ctrl-C in
// the terminal then reaches only the demo, which stops things in order instead of everything at once.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";

const running = new Set<ChildProcess>();

// Last resort if the demo itself crashes: a detached child would otherwise outlive it.
process.on("exit", () => {
  for (const child of running) signalGroup(child, "SIGTERM");
});

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** The executable npm installed for a package's command (what `npx <name>` would run). */
export function localBin(root: string, name: string): string {
  return join(root, "node_modules", ".bin", name);
}

export type StartOptions = {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Prefix each output line with this label; without it the child writes straight to our terminal. */
  label?: string;
};

export function startChild(command: string, args: readonly string[], options: StartOptions): ChildProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: options.label ? ["ignore", "pipe", "pipe"] : ["ignore", "inherit", "inherit"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  const { label } = options;
  if (label) {
    if (child.stdout) createInterface({ input: child.stdout }).on("line", (line) => console.log(`${label} ${line}`));
    if (child.stderr) createInterface({ input: child.stderr }).on("line", (line) => console.error(`${label} ${line}`));
  }
  return child;
}

/** Runs a command to completion; rejects when it fails. */
export function runChild(command: string, args: readonly string[], options: StartOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = startChild(command, args, options);
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `\`${[command, ...args].join(" ")}\` failed (${signal ? `signal ${signal}` : `exit code ${code}`})`,
          ),
        );
    });
  });
}

/** Stops every child still running: SIGTERM to its group, SIGKILL after `graceMs`. */
export async function stopChildren(graceMs: number): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => signalGroup(child, "SIGKILL"), graceMs);
          child.once("exit", () => {
            clearTimeout(timer);
            resolve();
          });
          signalGroup(child, "SIGTERM");
        }),
    ),
  );
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    // No host: the dual-stack wildcard, which clashes with anything already bound to that port.
    server.listen({ port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** `preferred` if nothing listens on it, else the next free port above it. */
export async function findFreePort(preferred: number): Promise<number> {
  for (let port = preferred; port < Math.min(preferred + 100, 65_536); port += 1) {
    if (await isPortFree(port)) return port;
  }
  throw new Error(`no free port between ${preferred} and ${preferred + 99}`);
}

/** Polls `url` until it answers 200; fails early if `child` exits first. */
export async function waitForOk(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the app exited before it was ready (${child.signalCode ?? `exit code ${child.exitCode}`})`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not answer 200 within ${Math.round(timeoutMs / 1000)} s`);
}
