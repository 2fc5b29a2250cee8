// The worker supervisor of `npm start` (scripts/start.mjs), with real processes: workers share one port, a worker
// killed with SIGKILL is replaced and the port keeps answering, and SIGTERM to the primary stops every worker.
// Each worker runs test-support/scripts/tiny-worker.mjs instead of Next.js (HOLDFAST_WORKER_PROGRAM), so no
// build is needed.
import { spawn, type ChildProcess } from "node:child_process";
import { get } from "node:http";
import { fileURLToPath } from "node:url";

import { afterEach, describe, expect, it } from "vitest";

import { freePort, waitUntil } from "@/test-support/server/private-redis";

const START = fileURLToPath(new URL("./start.mjs", import.meta.url));
const WORKER = fileURLToPath(new URL("../test-support/scripts/tiny-worker.mjs", import.meta.url));

let primary: ChildProcess | undefined;

afterEach(() => {
  if (primary && primary.exitCode === null) primary.kill("SIGKILL");
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** One request on a connection of its own (so node:cluster may hand it to any worker): the pid that answered. */
function askPid(port: number): Promise<string> {
  return new Promise((resolve) => {
    const request = get({ host: "127.0.0.1", port, path: "/", agent: false, timeout: 2_000 }, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => resolve(text));
    });
    request.on("timeout", () => request.destroy());
    request.on("error", () => resolve(""));
  });
}

/** The pids that answered `requests` requests on the shared port (a refused connection is skipped). */
async function answeringPids(port: number, requests: number): Promise<Set<number>> {
  const pids = new Set<number>();
  for (let i = 0; i < requests; i += 1) {
    const text = await askPid(port);
    if (/^\d+$/.test(text)) pids.add(Number(text));
  }
  return pids;
}

function startPrimary(port: number, workers: number): { child: ChildProcess; output: () => string } {
  let output = "";
  const child = spawn(process.execPath, [START, "-p", String(port)], {
    env: { ...process.env, HOLDFAST_WORKERS: String(workers), HOLDFAST_WORKER_PROGRAM: WORKER },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  primary = child;
  return { child, output: () => output };
}

describe("npm start's worker supervisor (scripts/start.mjs)", () => {
  it("serves one port from every worker; a worker killed with SIGKILL is replaced; SIGTERM stops them all", async () => {
    const port = await freePort();
    const { child, output } = startPrimary(port, 2);

    let first = new Set<number>();
    await waitUntil(async () => (first = await answeringPids(port, 20)).size === 2, 20_000);

    const [victim, survivor] = [...first];
    process.kill(victim!, "SIGKILL");
    // While the replacement starts (after a 1 s backoff) the port keeps answering, never from the dead worker.
    const during = await answeringPids(port, 5);
    expect(during.has(survivor!)).toBe(true);
    expect(during.has(victim!)).toBe(false);
    let after = new Set<number>();
    await waitUntil(async () => (after = await answeringPids(port, 20)).size === 2, 20_000);
    expect(after.has(victim!)).toBe(false);
    expect(after.has(survivor!)).toBe(true);
    expect(output()).toMatch(new RegExp(`worker ${victim} exited \\(SIGKILL\\); starting another in 1 s`));

    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    for (const pid of after) expect(isAlive(pid)).toBe(false);
  }, 60_000);
});
