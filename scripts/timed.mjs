// Runs one command and says how long it took: `node scripts/timed.mjs <label> <command> [args…]`.
//
// `npm test` wraps each of its steps in this, so a run shows where its minutes went (.ci/run has a budget:
// 30 minutes on a quiet box). When HOLDFAST_TIMINGS names a file, the step also appends one line to it,
// `<label>\t<seconds>\t<ok|failed>`, and .ci/run prints those lines in its summary at the end.
// The command's exit code (or its signal) is passed on unchanged.
//
// Plain Node ESM with no dependency, like scripts/ensure-deps.mjs: it runs before anything is installed.
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";

/** @param {number} seconds */
function formatDuration(seconds) {
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  return minutes > 0 ? `${minutes}m ${String(whole % 60).padStart(2, "0")}s` : `${whole}s`;
}

const [label, command, ...args] = process.argv.slice(2);
if (!label || !command) {
  console.error("usage: node scripts/timed.mjs <label> <command> [args…]");
  process.exit(2);
}

const started = performance.now();
// A shell only where npm needs one to be found (Windows' npm.cmd); the arguments are ours, not a user's.
const child = spawn(command, args, { stdio: "inherit", shell: process.platform === "win32" });

/** @param {NodeJS.Signals} signal */
const forward = (signal) => child.kill(signal);
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM", "SIGHUP"])) process.on(signal, forward);

child.on("exit", (code, signal) => {
  const seconds = (performance.now() - started) / 1000;
  const isOk = code === 0;
  console.log(`\n== ${label}: ${formatDuration(seconds)}${isOk ? "" : " (failed)"}`);
  const file = process.env.HOLDFAST_TIMINGS;
  if (file) appendFileSync(file, `${label}\t${seconds.toFixed(1)}\t${isOk ? "ok" : "failed"}\n`);
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else process.exit(code ?? 1);
});
