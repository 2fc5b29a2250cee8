import type { Timers } from "@/lib/client/sync/http";

/**
 * A device clock and timers the test drives by hand. The engine takes them by injection, so IndexedDB
 * (fake-indexeddb schedules with the real setImmediate) keeps running on real time underneath.
 */
export class FakeClock implements Timers {
  time: number;
  private readonly timers = new Map<number, { at: number; callback: () => void }>();
  private nextId = 1;

  constructor(start: number = Date.parse("2026-12-01T09:00:00.000Z")) {
    this.time = start;
  }

  now = (): number => this.time;

  setTimeout = (callback: () => void, ms: number): unknown => {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + Math.max(0, ms), callback });
    return id;
  };

  clearTimeout = (handle: unknown): void => {
    this.timers.delete(handle as number);
  };

  /** When the earliest timer is due, or null. */
  nextDueAt(): number | null {
    let earliest: number | null = null;
    for (const timer of this.timers.values()) if (earliest === null || timer.at < earliest) earliest = timer.at;
    return earliest;
  }

  /** Moves to `at` (never backwards) and runs every timer due by then, earliest first. */
  runDue(at: number): void {
    this.time = Math.max(this.time, at);
    for (;;) {
      let id: number | null = null;
      let due: { at: number; callback: () => void } | null = null;
      for (const [candidateId, timer] of this.timers) {
        if (timer.at <= this.time && (due === null || timer.at < due.at)) {
          id = candidateId;
          due = timer;
        }
      }
      if (id === null || due === null) return;
      this.timers.delete(id);
      due.callback();
    }
  }
}
