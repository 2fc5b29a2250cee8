import "server-only";

import { monitorEventLoopDelay, type IntervalHistogram } from "node:perf_hooks";

import { AppError } from "@/lib/shared/errors";

import { env } from "../env.mjs";
import { getResilienceMetrics, type AdmissionKind } from "../metrics/resilience-metrics";
import { createSubmitQueue, type SubmitQueueStats } from "./submit-queue";

export type { AdmissionKind };

/** The kinds admission control may refuse for load. Submits are not among them: they queue (submit-queue.ts). */
export type SheddableKind = Exclude<AdmissionKind, "submit">;

/** When this instance counts as saturated; 0 turns a bound off (ADMISSION_* in lib/server/env.mjs). */
export type AdmissionBounds = { maxInFlight: number; maxEventLoopDelayMs: number };

/**
 * What the instance is doing now: requests being handled, the event loop's recent p99 delay, and whether submits
 * are arriving (one arrived in the last SUBMIT_RUSH_MS, or some wait in the submit queue: a deadline storm; absent
 * counts as no), and how many submits wait their turn (they count as in flight for autosaves and heartbeats).
 */
export type Load = { inFlight: number; eventLoopDelayMs: number; isSubmitRush?: boolean; submitsWaiting?: number };

/**
 * What a background job asks before it takes CPU from the requests (the results worker): the load, the event
 * loop's delay in the latest window alone (a storm's first half second counts at once), and when a submit was
 * last admitted (0: never).
 */
export type InstanceLoad = Load & { latestEventLoopDelayMs: number; lastSubmitAtMs: number };

export type AdmissionDecision = { isAdmitted: true } | { isAdmitted: false; retryAfterSeconds: number };

/**
 * Each kind's share of the bounds. Heartbeats go first (presence is also known from the candidate channel,
 * and the next beat carries the same news); then autosaves and everything else alike (sign-in, staff pages:
 * fair). Submits are not refused for load at all: a submit refused near the deadline turns into late answers and a
 * second request later, so they wait their turn in the submit queue instead (`runSubmit`), which refuses one only
 * when its turn would come too late to count.
 */
export const ADMISSION_SHARES: Record<SheddableKind, number> = {
  heartbeat: 0.75,
  autosave: 1,
  other: 1,
};

/**
 * The shares while submits are arriving (one arrived in the last SUBMIT_RUSH_MS, or some wait their turn): autosaves and heartbeats
 * yield sooner, so a saturated instance spends its time on the submits. A refused autosave loses nothing: its
 * drafts stay in the page's IndexedDB, and the submit the candidate presses next carries them (a Submit click
 * ends the autosave's retries). Sign-in and staff requests keep their share.
 */
export const SUBMIT_RUSH_SHARES: Record<SheddableKind, number> = {
  heartbeat: 0.3,
  autosave: 0.4,
  other: 1,
};

/** A submit arriving this recently means submits are arriving (SUBMIT_RUSH_SHARES). */
export const SUBMIT_RUSH_MS = 1_000;

/**
 * How long a refused client waits before trying again (`Retry-After`, whole seconds). The candidate client
 * also backs off with full jitter (0.5 s doubling to 8 s, never sooner than this), so retries spread out.
 */
export const RETRY_AFTER_SECONDS: Record<SheddableKind, number> = { heartbeat: 10, autosave: 2, other: 2 };

/**
 * Below this many requests in flight, an event-loop delay is not a load that refusing requests relieves: the
 * process is busy with itself (the first request loading a route's modules at start-up, a background job), and
 * the few requests it has are not the cause. Requests that arrive faster than the delayed loop answers them
 * pile up in flight (every one waits for PostgreSQL or Redis): at the default 500 ms bound, 8 requests a second
 * already make 4 in flight.
 */
export const MIN_IN_FLIGHT_FOR_DELAY = 4;

/** The policy, without state: admit `kind` under `load`, or refuse it with a Retry-After. */
export function decideAdmission(kind: SheddableKind, load: Load, bounds: AdmissionBounds): AdmissionDecision {
  const share = (load.isSubmitRush ? SUBMIT_RUSH_SHARES : ADMISSION_SHARES)[kind];
  // Submits waiting their turn are work ahead of an autosave or a heartbeat, which would take a connection and CPU
  // from them (and whose drafts ride with the submit its candidate presses next); they are not ahead of a sign-in
  // or a proctor's page, which the storm must not lock out.
  const inFlight = load.inFlight + (kind === "other" ? 0 : (load.submitsWaiting ?? 0));
  const isOverInFlight = bounds.maxInFlight > 0 && inFlight >= bounds.maxInFlight * share;
  const isOverDelay =
    bounds.maxEventLoopDelayMs > 0 &&
    inFlight >= MIN_IN_FLIGHT_FOR_DELAY &&
    load.eventLoopDelayMs >= bounds.maxEventLoopDelayMs * share;
  if (!isOverInFlight && !isOverDelay) return { isAdmitted: true };
  return { isAdmitted: false, retryAfterSeconds: RETRY_AFTER_SECONDS[kind] };
}

/** The 503 a refused request gets: cheap (nothing was read), the one error body, and when to come back. */
export function overloadedError(retryAfterSeconds: number): AppError {
  return new AppError("OVERLOADED", `The server is busy; your work is safe; retry in ${retryAfterSeconds} s.`, {
    headers: { "Retry-After": String(retryAfterSeconds) },
    details: { retryAfterSeconds },
  });
}

/** The event loop's p99 delay is read over windows this long. */
const WINDOW_MS = 500;

export type AdmissionController = {
  /** Admits a request of `kind` (call `release` when it is answered), or throws 503 OVERLOADED. */
  enter(kind: SheddableKind): () => void;
  /**
   * A submit or force-submit: never refused for load; `work` runs in its turn in the submit queue (counted in flight
   * while it runs, not while it waits). Throws 503 OVERLOADED, with the queue's expected wait as Retry-After, only
   * when that turn would come after `mustFinishBy` (the attempt's deadline + grace) or the queue is full.
   */
  runSubmit<T>(work: () => Promise<T>, options?: { mustFinishBy?: number }): Promise<T>;
  load(): InstanceLoad;
  submitQueue(): SubmitQueueStats;
};

/**
 * The submit queue's size: places working at once, and how many may wait (SUBMIT_QUEUE_* in env.mjs); and, for
 * tests, a submit's time in a place before any has completed.
 */
export type SubmitQueueBounds = { places: number; maxWaiting: number; initialServiceMs?: number };

/**
 * This process's admission control: the in-flight count, and the event-loop delay (perf_hooks): the lower of
 * the p99 delays of the last two windows of WINDOW_MS, so only a delay that lasts counts. A refusal happens before the body is read or the database is touched, so it
 * costs microseconds: past capacity the instance keeps answering the requests it admitted at their usual
 * speed instead of letting a queue grow that outlives the burst (docs/decisions/020).
 */
export function createAdmissionController(
  bounds: AdmissionBounds,
  queueBounds: SubmitQueueBounds = submitQueueBounds(),
): AdmissionController {
  const metrics = getResilienceMetrics();
  const queue = createSubmitQueue({
    ...queueBounds,
    observer: {
      refused: (reason) => {
        metrics.admission.inc({ kind: "submit", decision: "refused" });
        metrics.submitQueueRefused.inc({ reason });
      },
      started: (waitedMs) => {
        metrics.admission.inc({ kind: "submit", decision: "admitted" });
        metrics.submitQueueWait.observe(waitedMs / 1000);
      },
      changed: ({ working, waiting }) => {
        metrics.submitQueue.set({ state: "working" }, working);
        metrics.submitQueue.set({ state: "waiting" }, waiting);
      },
    },
  });
  let inFlight = 0;
  let eventLoopDelayMs = 0;
  let latestEventLoopDelayMs = 0;
  let lastSubmitAtMs = 0;
  let histogram: IntervalHistogram | null = null;
  if (bounds.maxEventLoopDelayMs > 0) {
    histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    let previousWindowMs = 0;
    const sampler = setInterval(() => {
      const windowMs = histogram!.count > 0 ? histogram!.percentile(99) / 1e6 : 0;
      histogram!.reset();
      // Saturation is a delay that lasts: one long render or a GC pause makes one slow window, not two, and
      // must not turn requests away for the next half second.
      eventLoopDelayMs = Math.min(windowMs, previousWindowMs);
      latestEventLoopDelayMs = windowMs;
      previousWindowMs = windowMs;
      metrics.eventLoopDelay.set(windowMs / 1000);
    }, WINDOW_MS);
    sampler.unref();
  }

  return {
    enter(kind) {
      const now = Date.now();
      const submitsWaiting = queue.waiting();
      const isSubmitRush = now - lastSubmitAtMs < SUBMIT_RUSH_MS || submitsWaiting > 0;
      const decision = decideAdmission(kind, { inFlight, eventLoopDelayMs, isSubmitRush, submitsWaiting }, bounds);
      if (!decision.isAdmitted) {
        metrics.admission.inc({ kind, decision: "refused" });
        throw overloadedError(decision.retryAfterSeconds);
      }
      metrics.admission.inc({ kind, decision: "admitted" });
      inFlight += 1;
      metrics.inFlight.set(inFlight);
      let isReleased = false;
      return () => {
        if (isReleased) return;
        isReleased = true;
        inFlight -= 1;
        metrics.inFlight.set(inFlight);
      };
    },
    async runSubmit(work, options) {
      // A submit arriving is the storm's sign, admitted or not: autosaves and heartbeats yield from now on.
      lastSubmitAtMs = Date.now();
      return queue.run(async () => {
        inFlight += 1;
        metrics.inFlight.set(inFlight);
        try {
          return await work();
        } finally {
          inFlight -= 1;
          metrics.inFlight.set(inFlight);
        }
      }, options);
    },
    load: () => ({ inFlight, eventLoopDelayMs, latestEventLoopDelayMs, lastSubmitAtMs }),
    submitQueue: () => queue.stats(),
  };
}

const globalForAdmission = globalThis as unknown as { holdfastAdmission?: AdmissionController };

/** This process's controller, bounded by ADMISSION_MAX_IN_FLIGHT and ADMISSION_MAX_EVENT_LOOP_DELAY_MS, its queue by SUBMIT_QUEUE_*. */
export function admission(): AdmissionController {
  return (globalForAdmission.holdfastAdmission ??= createAdmissionController({
    maxInFlight: env.ADMISSION_MAX_IN_FLIGHT,
    // `next dev` compiles on the event loop: seconds of delay that say nothing about load.
    maxEventLoopDelayMs: env.NODE_ENV === "development" ? 0 : env.ADMISSION_MAX_EVENT_LOOP_DELAY_MS,
  }));
}

/**
 * The submit queue's places: SUBMIT_QUEUE_PLACES, else no bound (every submit starts at once, as before the queue,
 * and none waits). Measured on 2026-12-07 (docs/benchmarks/log/2026-12-07-submit-queue.md): on an AMD EPYC box,
 * the 3,000-candidate storm's click → done p99 was longer with every bound tried (8, 32, 64 and 200 places per
 * worker) than with none, so a bound stays a setting until the storm on both box classes picks one.
 */
export function submitQueueBounds(): SubmitQueueBounds {
  return {
    places: env.SUBMIT_QUEUE_PLACES || Number.POSITIVE_INFINITY,
    maxWaiting: env.SUBMIT_QUEUE_MAX_WAITING,
  };
}

/**
 * What this process's controller sees now, without making one: a background job (the results worker) reads the
 * load the requests' own controller counts; before the first request there is none, and nothing is in flight.
 */
export function currentLoad(): InstanceLoad {
  return (
    globalForAdmission.holdfastAdmission?.load() ?? {
      inFlight: 0,
      eventLoopDelayMs: 0,
      latestEventLoopDelayMs: 0,
      lastSubmitAtMs: 0,
    }
  );
}

/** Replaces this process's controller (tests); `null` goes back to the one from the environment. */
export function setAdmission(controller: AdmissionController | null): void {
  globalForAdmission.holdfastAdmission = controller ?? undefined;
}
