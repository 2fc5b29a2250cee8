import type { CandidateFacts } from "@/lib/shared/schemas/proctor";

type Scheduler = (callback: () => void) => void;

/**
 * Under a flood of events the table re-derives, re-filters and re-sorts at most this often. A class of a
 * few hundred costs well under a millisecond a pass, so a quarter second; at thousands of rows a pass costs
 * tens of milliseconds, so once a second (the dashboard's clock ticks once a second anyway).
 */
export function flushIntervalMs(rows: number): number {
  return rows > 2_000 ? 1_000 : 250;
}

/** One notification per animation frame, at most every `minIntervalMs()`; a timer outside a browser. */
export function frameScheduler(minIntervalMs: () => number): Scheduler {
  let lastFlushAt = -Infinity;
  return (callback) => {
    const wait = Math.max(0, lastFlushAt + minIntervalMs() - Date.now());
    setTimeout(() => {
      const flush = () => {
        lastFlushAt = Date.now();
        callback();
      };
      if (typeof requestAnimationFrame === "function") requestAnimationFrame(flush);
      else flush();
    }, wait);
  };
}

/**
 * The dashboard's live rows, outside React: enrollmentId → the newest facts the server sent. The snapshot and
 * every `candidates` event merge in here; facts older (by `observedAt`) than those held never replace them,
 * because a snapshot read before an event can arrive after it. React subscribes through
 * useSyncExternalStore; however many events arrive, listeners hear at most once per scheduled flush (one
 * animation frame, at most every `flushIntervalMs`), so a flood costs a few re-sorts a second, not one per
 * event. The dashboard's one-second clock goes through the same flush (`tick`), so a tick and a flood
 * together still make one pass.
 */
export class CandidateStore {
  private readonly facts = new Map<string, CandidateFacts>();
  private readonly listeners = new Set<() => void>();
  private readonly schedule: Scheduler;
  private version = 0;
  /** Changes when a candidate is added or removed (not when facts change): the name order's memo key. */
  private membership = 0;
  private isFlushScheduled = false;
  /** serverTime − local clock, from the newest message: the dashboard's "now" is the server's. */
  private serverOffsetMs = 0;
  private lastUpdateAt: number | null = null;

  constructor(options: { schedule?: Scheduler } = {}) {
    this.schedule = options.schedule ?? frameScheduler(() => flushIntervalMs(this.facts.size));
  }

  /**
   * A full snapshot: merges like events do, and forgets candidates the server no longer lists (unenrolled)
   * unless their facts are newer than the snapshot.
   */
  replaceAll(candidates: readonly CandidateFacts[], serverTime: number): void {
    const listed = new Set<string>();
    for (const facts of candidates) listed.add(facts.enrollmentId);
    for (const [id, held] of this.facts) {
      if (!listed.has(id) && held.observedAt <= serverTime) {
        this.facts.delete(id);
        this.membership += 1;
      }
    }
    this.merge(candidates, serverTime, { force: true });
  }

  /** Changed candidates from an event: newest `observedAt` wins; equal is taken (same read, same facts). */
  merge(candidates: readonly CandidateFacts[], serverTime: number, options: { force?: boolean } = {}): number {
    let changed = 0;
    for (const facts of candidates) {
      const held = this.facts.get(facts.enrollmentId);
      if (held && held.observedAt > facts.observedAt) continue;
      if (!held) this.membership += 1;
      this.facts.set(facts.enrollmentId, facts);
      changed += 1;
    }
    this.noteServerTime(serverTime);
    if (changed > 0 || options.force) this.changed();
    return changed;
  }

  /** A message without candidates (ready, keep-alive) still tells us the server's time. */
  noteServerTime(serverTime: number): void {
    this.serverOffsetMs = serverTime - Date.now();
    this.lastUpdateAt = serverTime;
  }

  serverNow(): number {
    return Date.now() + this.serverOffsetMs;
  }

  /** Server time of the last snapshot or event, for "Live · updated 10:42:13". */
  lastUpdate(): number | null {
    return this.lastUpdateAt;
  }

  get(enrollmentId: string): CandidateFacts | undefined {
    return this.facts.get(enrollmentId);
  }

  list(): CandidateFacts[] {
    return [...this.facts.values()];
  }

  get size(): number {
    return this.facts.size;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Time moved on: listeners hear at the next flush, together with any data that arrived meanwhile. */
  tick = (): void => {
    this.changed();
  };

  getMembership(): number {
    return this.membership;
  }

  /** Changes with every flush: what useSyncExternalStore compares. */
  getVersion = (): number => this.version;

  private changed(): void {
    if (this.isFlushScheduled) return;
    this.isFlushScheduled = true;
    this.schedule(() => {
      this.isFlushScheduled = false;
      this.version += 1;
      for (const listener of this.listeners) listener();
    });
  }
}
