// When the results worker scores papers (issue 17): scoring can wait a few seconds, a candidate's submit at the
// deadline cannot. The worker runs in every app instance beside the candidates' requests and shares their
// database pool; in a deadline storm, every submit queues a job, and a drain that ran then would take pool
// connections and CPU from the submits still coming in. So it drains while the instance is quiet, and lets a
// busy spell pass — but never for longer than MAX_DEFERRAL_MS in a row, so results still come under a load that
// does not end. Submits still arriving count as busy by themselves: at a storm's onset the requests wait unread in
// the sockets before any count or average says so, and the storm's first jobs were queued by its first submits.

import { SUBMIT_RUSH_MS } from "../limits/admission";

/** What the instance is doing now. */
export type WorkerLoad = {
  /** Requests being handled (admission control's count). */
  inFlight: number;
  /** Requests waiting for a database connection. */
  poolWaiting: number;
  /** The event loop's p99 delay in the latest window, ms. */
  eventLoopDelayMs: number;
  /** Since this instance last admitted a submit, ms (Infinity: none yet). */
  msSinceSubmit: number;
};

/**
 * Busy: any request waits for a connection, this many requests in progress, this much event-loop delay, or a
 * submit admitted this recently.
 */
export const BUSY_IN_FLIGHT = 32;
export const BUSY_EVENT_LOOP_DELAY_MS = 100;
/** Submits still arriving, as admission control counts them (one admitted within its SUBMIT_RUSH_MS). */
export const BUSY_AFTER_SUBMIT_MS = SUBMIT_RUSH_MS;
/** The longest the worker lets a busy spell pass before it scores one batch anyway. */
export const MAX_DEFERRAL_MS = 30_000;

export function isBusy(load: WorkerLoad): boolean {
  return (
    load.poolWaiting > 0 ||
    load.inFlight >= BUSY_IN_FLIGHT ||
    load.eventLoopDelayMs >= BUSY_EVENT_LOOP_DELAY_MS ||
    load.msSinceSubmit < BUSY_AFTER_SUBMIT_MS
  );
}

/**
 * Whether to score a batch now. `deferredSinceMs`: when the worker first let a busy spell pass without scoring
 * (null when it has not since its last batch).
 */
export function shouldDrainNow(load: WorkerLoad, deferredSinceMs: number | null, nowMs: number): boolean {
  if (!isBusy(load)) return true;
  return deferredSinceMs !== null && nowMs - deferredSinceMs >= MAX_DEFERRAL_MS;
}
