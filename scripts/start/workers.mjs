// How many Next.js server processes `npm start` runs (scripts/start.mjs), and what each one is told.
// Plain Node (no TypeScript, no dependencies): it runs in the production image before anything else.
import { availableParallelism } from "node:os";

/**
 * The number of worker processes: `HOLDFAST_WORKERS` when set (a whole number 1–256, or `auto`), else one per
 * core when Redis is there to share limits, locks and live events between them, else 1 (the app refuses
 * several instances without Redis, ADR 003). Throws on a value that is not a worker count.
 *
 * @param {{ value: string | undefined; cores?: number; hasRedis: boolean }} options
 * @returns {{ workers: number; reason: string }}
 */
export function workerCount({ value, cores = availableParallelism(), hasRedis }) {
  const text = value?.trim() ?? "";
  if (text === "" || text.toLowerCase() === "auto") {
    if (!hasRedis) return { workers: 1, reason: "no Redis: one worker (set REDIS_URL to use every core)" };
    return { workers: Math.max(1, cores), reason: `one per core (${cores})` };
  }
  if (!/^\d+$/.test(text)) throw new Error(`HOLDFAST_WORKERS must be a whole number or "auto", not "${value}"`);
  const workers = Number(text);
  if (workers < 1 || workers > 256) throw new Error(`HOLDFAST_WORKERS must be between 1 and 256, not ${workers}`);
  return { workers, reason: "HOLDFAST_WORKERS" };
}

/**
 * The environment of one worker: every worker process is one instance as far as the in-memory limits'
 * share of a cluster budget goes (lib/server/limits), so `HOLDFAST_INSTANCES` becomes instances × workers.
 *
 * @param {Record<string, string | undefined>} env
 * @param {number} workers
 * @returns {Record<string, string | undefined>}
 */
export function workerEnvironment(env, workers) {
  const instances = Number(env.HOLDFAST_INSTANCES ?? "1");
  const base = Number.isInteger(instances) && instances >= 1 ? instances : 1;
  return { ...env, HOLDFAST_INSTANCES: String(base * workers), HOLDFAST_WORKERS: String(workers) };
}

/**
 * How long to wait before restarting a worker that died: doubling from 1 s up to 30 s with each death that
 * came within a minute of the previous one, back to 1 s after a calm minute.
 *
 * @param {number} recentDeaths deaths in a row, each within a minute of the last (1 for the first)
 * @returns {number} milliseconds
 */
export function restartDelayMs(recentDeaths) {
  return Math.min(30_000, 1_000 * 2 ** Math.max(0, recentDeaths - 1));
}

/** Young-generation semi-space per worker, in MB (V8's default is 16 on 64-bit machines, 1–2 cores). */
export const SEMI_SPACE_MB = 64;

/**
 * Node options for each Next.js worker: a larger young generation, so the short-lived objects of every request
 * (headers, JSON bodies, promises) die in fewer scavenges. Measured with `npm run bench -- sync`
 * (docs/benchmarks/log/2026-12-03-young-generation.md): autosave 0.41× → 0.47× the baseline's throughput, same hour,
 * for up to ~150 MB more memory per worker at most. An operator's own `--max-semi-space-size` (in NODE_OPTIONS or on
 * the primary's command line) wins.
 *
 * @param {{ nodeOptions: string | undefined; execArgv: readonly string[] }} options
 * @returns {string[]}
 */
export function workerNodeArgs({ nodeOptions, execArgv }) {
  const given = [nodeOptions ?? "", ...execArgv].some((option) => option.includes("--max-semi-space-size"));
  return given ? [] : [`--max-semi-space-size=${SEMI_SPACE_MB}`];
}
