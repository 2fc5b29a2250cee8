// The real app as a production server: `next build` when needed, then `npm start`'s worker (scripts/start/worker.mjs,
// Next.js with the candidate's sync requests answered before Next's routing, ADR 023) on a free port.
//
// The build goes to the project's .next like every other build here. `next start` then runs from a
// private copy of that build (in a temporary directory, with node_modules linked), so another engineer
// rebuilding .next in the middle of a measurement cannot pull the server's files away from under it.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

import { isCleaningUp, onCleanup } from "../run/cleanup";
import { PROJECT_ROOT } from "./database";
import { errorMessage, say, shout, sleep } from "../run/log";
import { freePort, probeOnce, runToCompletion, startChild, waitForHttp, type ManagedChild } from "./processes";
import { RUNTIME_FILES } from "../../../scripts/start/runtime-files.mjs";
import { workerNodeArgs } from "../../../scripts/start/workers.mjs";

export type BuildMode = "auto" | "always" | "never";

/** What goes into `next build`. tsconfig.json is left out: `next build` itself rewrites it. */
const BUILD_INPUTS = [
  "app",
  "components",
  "lib",
  "public",
  "next.config.mjs",
  "package-lock.json",
  "prisma/schema.prisma",
  "instrumentation.ts",
  "proxy.ts",
  "middleware.ts",
];
const NOT_BUILD_INPUT = /(\.(test|spec|int\.test)\.[cm]?[jt]sx?$)|(^|\/)testing\//;

const BUILD_TRIES = 2;
const NEXT_BIN = join(PROJECT_ROOT, "node_modules", "next", "dist", "bin", "next");
const BUILD_ID_FILE = join(PROJECT_ROOT, ".next", "BUILD_ID");

function newestInput(): { file: string; mtimeMs: number } {
  let newest = { file: "", mtimeMs: 0 };
  const visit = (path: string): void => {
    const absolute = join(PROJECT_ROOT, path);
    if (!existsSync(absolute)) return;
    const stat = statSync(absolute);
    if (stat.isDirectory()) {
      for (const name of readdirSync(absolute)) if (name !== "node_modules") visit(join(path, name));
      return;
    }
    if (NOT_BUILD_INPUT.test(path)) return;
    if (stat.mtimeMs > newest.mtimeMs) newest = { file: path, mtimeMs: stat.mtimeMs };
  };
  for (const input of BUILD_INPUTS) visit(input);
  return newest;
}

export function currentBuildId(): string | null {
  return existsSync(BUILD_ID_FILE) ? readFileSync(BUILD_ID_FILE, "utf8").trim() : null;
}

/** Builds unless `.next/BUILD_ID` exists and is newer than every build input (mode `auto`). */
export async function ensureBuild(options: {
  mode: BuildMode;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}): Promise<{ isBuilt: boolean; buildId: string; reason: string }> {
  const buildId = currentBuildId();
  let reason: string;
  if (options.mode === "never") {
    if (!buildId) throw new Error("--build=never, but there is no build (.next/BUILD_ID is missing)");
    return { isBuilt: false, buildId, reason: "--build=never" };
  } else if (options.mode === "always") {
    reason = "--build=always";
  } else if (!buildId) {
    reason = ".next/BUILD_ID is missing";
  } else {
    const newest = newestInput();
    const builtAt = statSync(BUILD_ID_FILE).mtimeMs;
    if (newest.mtimeMs <= builtAt) return { isBuilt: false, buildId, reason: "the build is newer than every source" };
    reason = `${newest.file} changed after the last build`;
  }

  say(`building the app (next build), because ${reason}; this writes the shared .next and takes a few minutes`);
  const startedAt = Date.now();
  // Other engineers edit this tree while it builds; a file that vanishes during the type check fails a
  // build that would pass a moment later. One more try tells such a blip from a real break.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await runToCompletion({
        name: "next build",
        command: process.execPath,
        args: [NEXT_BIN, "build"],
        env: options.env,
        cwd: PROJECT_ROOT,
      });
      break;
    } catch (error) {
      if (attempt >= BUILD_TRIES || options.signal.aborted) throw error;
      say(
        `next build failed; trying once more in 5 s (the sources may have been changing):\n${errorMessage(error).split("\n").slice(-12).join("\n")}`,
      );
      await sleep(5_000, options.signal);
    }
  }
  const built = currentBuildId();
  if (!built) throw new Error("next build finished but .next/BUILD_ID is missing (did another build start meanwhile?)");
  say(`built ${built} in ${Math.round((Date.now() - startedAt) / 1000)} s`);
  return { isBuilt: true, buildId: built, reason };
}

/** Copies the current build to a private directory the server can run from (several instances may share it). */
export function snapshotBuild(expectedBuildId: string): string {
  const dir = mkdtempSync(join(tmpdir(), `holdfast-bench-${process.pid}-`));
  onCleanup(`remove ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
  const skip = new Set(["cache", "trace", "diagnostics", "dev"].map((name) => join(PROJECT_ROOT, ".next", name)));
  cpSync(join(PROJECT_ROOT, ".next"), join(dir, ".next"), {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => !skip.has(source),
  });
  for (const file of RUNTIME_FILES) cpSync(join(PROJECT_ROOT, file), join(dir, file), { recursive: true });
  if (existsSync(join(PROJECT_ROOT, "public")))
    cpSync(join(PROJECT_ROOT, "public"), join(dir, "public"), { recursive: true });
  symlinkSync(join(PROJECT_ROOT, "node_modules"), join(dir, "node_modules"), "dir");

  const copied = existsSync(join(dir, ".next", "BUILD_ID"))
    ? readFileSync(join(dir, ".next", "BUILD_ID"), "utf8").trim()
    : null;
  if (copied !== expectedBuildId || currentBuildId() !== expectedBuildId) {
    throw new Error(
      `.next changed while it was being copied (another build running?); expected ${expectedBuildId}, copied ${copied ?? "nothing"}`,
    );
  }
  say(
    `running the build from a private copy in ${relative(process.cwd(), dir).startsWith("..") ? dir : relative(process.cwd(), dir)}`,
  );
  return dir;
}

export type AppServer = {
  port: number;
  buildId: string;
  child: ManagedChild;
  /** Stops the app before the run ends (e.g. so that --cpu-prof writes its profile), without a warning. */
  stop(): Promise<void>;
};

/**
 * Starts one worker (scripts/start/worker.mjs) from a snapshot (see `snapshotBuild`) on `port` and waits for GET /api/health.
 * An exit before the run's cleanup is shouted about unless it was asked for (`stop()`) or
 * `isExitExpected()` says it was on purpose (an instance a fault scenario killed).
 */
export async function startAppInstance(options: {
  dir: string;
  buildId: string;
  port: number;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  name?: string;
  isExitExpected?: () => boolean;
  /** Node options before Next's script (e.g. --cpu-prof). */
  nodeArgs?: readonly string[];
  /**
   * Run `npm start`'s scripts/start.mjs with this many Next.js worker processes (node:cluster, one port;
   * `HOLDFAST_WORKERS`) instead of one worker on its own. The process group holds them all, so CPU
   * figures and kills take in every worker.
   */
  workers?: number;
}): Promise<AppServer> {
  const { dir, port } = options;
  const name = options.name ?? "app";
  const serverArgs = [dir, "--port", String(port), "--hostname", "127.0.0.1"];
  const child = startChild({
    name,
    command: process.execPath,
    args:
      options.workers === undefined
        ? [
            // One of scripts/start.mjs's workers, with what it gives each, without the cluster's primary.
            ...workerNodeArgs({ nodeOptions: options.env.NODE_OPTIONS, execArgv: options.nodeArgs ?? [] }),
            ...(options.nodeArgs ?? []),
            join(dir, "scripts", "start", "worker.mjs"),
            "start",
            ...serverArgs,
          ]
        : [...(options.nodeArgs ?? []), join(dir, "scripts", "start.mjs"), ...serverArgs],
    env: {
      APP_URL: `http://127.0.0.1:${port}`,
      // A build whose fast routes the worker cannot load stops the run: no figure measures Next's path unseen (ADR 026).
      HOLDFAST_FAST_PATH_STRICT: "1",
      ...options.env,
      ...(options.workers === undefined ? {} : { HOLDFAST_WORKERS: String(options.workers) }),
    },
    cwd: dir,
    countPatterns: { error: /"level":"error"/, warn: /"level":"warn"/ },
  });
  await waitForHttp({ port, path: "/api/health", child, timeoutMs: 90_000, signal: options.signal });
  say(
    `${name} (${options.workers === undefined ? "one worker" : `scripts/start.mjs, ${options.workers} worker(s)`}, pid ${child.pid}) answers on http://127.0.0.1:${port}`,
  );
  let isStopping = false;
  void child.exited.then(({ code, signal }) => {
    if (!isCleaningUp() && !isStopping && !options.isExitExpected?.())
      shout(`the ${name} exited during the run (${signal ?? `code ${code}`}):\n${child.tail().slice(-30).join("\n")}`);
  });
  const stop = async (): Promise<void> => {
    isStopping = true;
    await child.stop();
  };
  return { port, buildId: options.buildId, child, stop };
}

/** Starts the app from a copy of build `buildId` on a free port and waits for GET /api/health. */
export async function startApp(options: {
  buildId: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  nodeArgs?: readonly string[];
  /** See `startAppInstance`. */
  workers?: number;
  /**
   * Every worker renders a page before the run, as a production worker has by the time candidates arrive (they
   * open the exam page): Next's request stores are then in Node 20's promise hook, as they are in production
   * (docs/benchmarks/log/2026-12-05-next-request-stores.md). Before 2026-12-05 the runs' workers had served
   * the health check only.
   */
  warmPages?: boolean;
}): Promise<AppServer> {
  const dir = snapshotBuild(options.buildId);
  const port = await freePort();
  const app = await startAppInstance({
    dir,
    buildId: options.buildId,
    port,
    env: { ...options.env, APP_URL: `http://127.0.0.1:${port}` },
    signal: options.signal,
    nodeArgs: options.nodeArgs,
    workers: options.workers,
  });
  if (options.warmPages) await warmPages(port, options.workers ?? 1);
  return app;
}

/**
 * Renders the start page over fresh connections, four per worker (the cluster's primary hands connections to its
 * workers in turn), and says what they answered. Not a check: a run that keeps the hook off (`--context-hooks
 * off`) gets 500s here, by design.
 */
async function warmPages(port: number, workers: number): Promise<void> {
  const statuses = new Map<string, number>();
  for (let index = 0; index < workers * 4; index += 1) {
    const status = String(await probeOnce(port, "/", 30_000));
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  say(
    `warmed the workers with ${workers * 4} page renders (${[...statuses].map(([status, count]) => `${status}×${count}`).join(" ")})`,
  );
}
