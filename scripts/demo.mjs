// `npm run demo`: Holdfast with a demo exam, in one command, on a fresh clone.
//
// Plain Node with no dependencies, because it runs before anything is installed: it makes sure the
// dependencies and the Prisma client exist (scripts/ensure-deps.mjs), then hands over to
// scripts/demo/main.ts, which does the real work (TypeScript, loaded through tsx).
import { spawn, spawnSync } from "node:child_process";
import { constants } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { schemaEngine } from "./prisma-engine.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

// Machines that reach only the npm registry cannot download Prisma's native schema engine; say which
// engine the demo's migrations will use when the user did not choose one (scripts/prisma-engine.mjs).
const engine = schemaEngine();
if (!process.env.PRISMA_SCHEMA_ENGINE_BINARY && engine) {
  process.env.PRISMA_SCHEMA_ENGINE_BINARY = engine;
  console.log(`holdfast: PRISMA_SCHEMA_ENGINE_BINARY is unset; using ${engine}`);
}

const deps = spawnSync(process.execPath, [join(root, "scripts", "ensure-deps.mjs")], { cwd: root, stdio: "inherit" });
if (deps.status !== 0) process.exit(deps.status ?? 1);

// The demo runs as `tsx --conditions=react-server scripts/demo/main.ts` would, but with tsx loaded into
// this very Node (`--import tsx`) instead of through the tsx CLI. The CLI is a second process that relays
// signals and SIGKILLs its child when the child does not acknowledge one within 30 ms, which a Ctrl-C
// (that reaches every process at once) sometimes triggers, killing the demo before it could stop
// PostgreSQL. The react-server condition turns `import "server-only"` in lib/server into a no-op.
const child = spawn(
  process.execPath,
  ["--import", "tsx", "--conditions=react-server", join(root, "scripts", "demo", "main.ts"), ...process.argv.slice(2)],
  { cwd: root, stdio: "inherit" },
);

// Ctrl-C in a terminal reaches both processes; a `kill` aimed at this one must still stop the demo.
// The demo treats repeated signals as one.
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM", "SIGHUP"])) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}

// `npm run` starts us through `sh -c`, and a SIGTERM aimed at npm kills that shell without reaching
// us. When our parent goes away like that, stop the demo instead of leaving it running unseen.
const parentPid = process.ppid;
const parentWatch = setInterval(() => {
  if (process.ppid !== parentPid && child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
}, 1_000);
parentWatch.unref();

child.on("exit", (code, signal) => {
  process.exit(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1));
});
