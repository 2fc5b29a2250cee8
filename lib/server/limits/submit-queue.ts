import "server-only";

import { overloadedError } from "./admission";

/**
 * The submit queue (issue 38, docs/decisions/020): submits and force-submits of this process take their turn, first
 * come first served, with at most `places` of them working at once (a share of the database pool), instead of
 * being refused for load. A submit is refused only when its turn would come too late: when the wait the queue
 * expects, plus one submit's own time, ends after the moment the caller gives (the candidate's deadline + grace,
 * where this process knows it), or when `maxWaiting` are already waiting (the memory this process gives it). The
 * refusal's Retry-After is the queue's expected wait, not a constant.
 *
 * The expected wait is the submits ahead divided among the places, times a submit's recent time in a place (an
 * exponentially weighted mean of the last completions): it follows the box, the database and the work as they are.
 */
export type SubmitQueue = {
  /**
   * Runs `work` in its turn and returns its result. Throws 503 OVERLOADED with a Retry-After, before waiting at
   * all, when the turn would come after `mustFinishBy` (epoch ms) or the queue is full.
   */
  run<T>(work: () => Promise<T>, options?: { mustFinishBy?: number }): Promise<T>;
  /** What the queue holds now, and the time a submit takes in a place. */
  stats(): SubmitQueueStats;
  /** Submits waiting their turn now (what admission control reads on every request, without building stats). */
  waiting(): number;
};

export type SubmitQueueStats = {
  places: number;
  working: number;
  waiting: number;
  /** A submit's recent time in a place, in ms (the weighted mean the expected wait is made of). */
  serviceMs: number;
  /** What a submit arriving now would wait before its turn, in ms. */
  expectedWaitMs: number;
};

export type SubmitQueueOptions = {
  /** Submits working at once: they hold a database connection each for most of their time. */
  places: number;
  /** Submits waiting at most; one more is refused. */
  maxWaiting: number;
  /** A submit's time in a place before any has completed, in ms. */
  initialServiceMs?: number;
  now?: () => number;
  /** Told of every decision and wait (metrics). */
  observer?: SubmitQueueObserver;
};

export type SubmitQueueObserver = {
  refused?(reason: "late" | "full", expectedWaitMs: number): void;
  started?(waitedMs: number): void;
  changed?(stats: Pick<SubmitQueueStats, "working" | "waiting">): void;
};

/** The weight of the latest completion in the mean: about the last ten count. */
const SERVICE_WEIGHT = 0.1;
/** A first guess before anything completed: a submit's statement and its round trips on a quiet box. */
const INITIAL_SERVICE_MS = 50;

export function createSubmitQueue(options: SubmitQueueOptions): SubmitQueue {
  // Infinity: no bound (every submit starts at once; the queue only counts them).
  const places = Math.max(1, Math.floor(options.places));
  const now = options.now ?? Date.now;
  const observer = options.observer ?? {};
  let working = 0;
  let serviceMs = options.initialServiceMs ?? INITIAL_SERVICE_MS;
  /** Waiting turns, in arrival order; `head` is the next one (an array shifted in O(1)). */
  const waiting: (() => void)[] = [];
  let head = 0;

  const waitingCount = () => waiting.length - head;
  const changed = () => observer.changed?.({ working, waiting: waitingCount() });

  /** The wait of a submit behind `ahead` waiting ones: whole rounds of the places, each a submit's time. */
  function expectedWaitMs(ahead: number): number {
    if (working < places && ahead === 0) return 0;
    return Math.ceil((ahead + 1) / places) * serviceMs;
  }

  function next(): void {
    if (working >= places || waitingCount() === 0) return;
    const turn = waiting[head]!;
    waiting[head] = undefined as unknown as () => void;
    head += 1;
    if (head > 1024 && head * 2 > waiting.length) {
      waiting.splice(0, head);
      head = 0;
    }
    working += 1;
    turn();
  }

  async function inPlace<T>(work: () => Promise<T>): Promise<T> {
    const started = now();
    try {
      return await work();
    } finally {
      serviceMs += SERVICE_WEIGHT * (Math.max(0, now() - started) - serviceMs);
      working -= 1;
      next();
      changed();
    }
  }

  return {
    async run(work, runOptions = {}) {
      const ahead = waitingCount();
      const wait = expectedWaitMs(ahead);
      if (ahead >= options.maxWaiting) {
        observer.refused?.("full", wait);
        throw overloadedError(retryAfterSeconds(wait));
      }
      if (runOptions.mustFinishBy !== undefined && now() + wait + serviceMs > runOptions.mustFinishBy) {
        observer.refused?.("late", wait);
        throw overloadedError(retryAfterSeconds(wait));
      }
      const arrived = now();
      if (working < places && ahead === 0) {
        working += 1;
      } else {
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          changed();
        });
      }
      observer.started?.(now() - arrived);
      changed();
      return inPlace(work);
    },
    stats: () => ({
      places,
      working,
      waiting: waitingCount(),
      serviceMs,
      expectedWaitMs: expectedWaitMs(waitingCount()),
    }),
    waiting: waitingCount,
  };
}

/** Whole seconds, at least one: the queue's expected wait, as `Retry-After` says it. */
function retryAfterSeconds(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs / 1000));
}
