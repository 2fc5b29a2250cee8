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
