import { describe, expect, it, vi } from "vitest";

import { CandidateStore, flushIntervalMs } from "./candidate-store";
import { candidateFacts, NOW } from "@/test-support/shared/candidate-facts";

/** A scheduler the test flushes by hand, standing in for the animation frame. */
function manualScheduler() {
  const queued: (() => void)[] = [];
  return {
    schedule: (callback: () => void) => void queued.push(callback),
    flush: () => queued.splice(0).forEach((callback) => callback()),
    get pending() {
      return queued.length;
    },
  };
}

describe("CandidateStore", () => {
  it("keeps the newest facts of a candidate: older facts arriving later never overwrite newer ones", () => {
    const store = new CandidateStore({ schedule: manualScheduler().schedule });
    const newer = candidateFacts({ answered: 4, observedAt: NOW + 2_000 });
    const older = { ...newer, answered: 2, observedAt: NOW + 1_000 };

    store.merge([newer], NOW + 2_000);
    expect(store.merge([older], NOW + 2_100)).toBe(0);
    expect(store.get(newer.enrollmentId)?.answered).toBe(4);

    // A snapshot read before the event but delivered after it loses too.
    store.replaceAll([older], NOW + 1_000);
    expect(store.get(newer.enrollmentId)?.answered).toBe(4);

    const newest = { ...newer, answered: 5, observedAt: NOW + 3_000 };
    store.merge([newest], NOW + 3_000);
    expect(store.get(newer.enrollmentId)?.answered).toBe(5);
  });

  it("a snapshot forgets candidates it no longer lists, but not ones an event reported after it was read", () => {
    const store = new CandidateStore({ schedule: manualScheduler().schedule });
    const gone = candidateFacts({ name: "Gone", observedAt: NOW });
    const fresh = candidateFacts({ name: "Fresh", observedAt: NOW + 5_000 });
    const kept = candidateFacts({ name: "Kept", observedAt: NOW });
    store.merge([gone, fresh, kept], NOW + 5_000);

    store.replaceAll([kept], NOW + 1_000);

    expect(
      store
        .list()
        .map((facts) => facts.name)
        .sort(),
    ).toEqual(["Fresh", "Kept"]);
  });

  it("tells its listeners once per flush however many events arrived", () => {
    const scheduler = manualScheduler();
    const store = new CandidateStore({ schedule: scheduler.schedule });
    const listener = vi.fn();
    store.subscribe(listener);

    for (let index = 0; index < 500; index += 1)
      store.merge([candidateFacts({ observedAt: NOW + index })], NOW + index);
    expect(scheduler.pending).toBe(1);
    expect(listener).not.toHaveBeenCalled();

    const before = store.getVersion();
    scheduler.flush();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.getVersion()).toBe(before + 1);
    expect(store.size).toBe(500);
  });

  it("nothing changed, nothing to tell: a replayed event does not wake the table", () => {
    const scheduler = manualScheduler();
    const store = new CandidateStore({ schedule: scheduler.schedule });
    const facts = candidateFacts();
    store.merge([facts], NOW);
    scheduler.flush();
    store.merge([{ ...facts, observedAt: NOW - 1 }], NOW);
    expect(scheduler.pending).toBe(0);
  });

  it("reads the server's clock from the newest message", () => {
    const store = new CandidateStore({ schedule: manualScheduler().schedule });
    const local = Date.now();
    store.noteServerTime(local + 90_000);
    expect(store.serverNow() - Date.now()).toBeGreaterThanOrEqual(89_000);
    expect(store.serverNow() - Date.now()).toBeLessThanOrEqual(90_100);
    expect(store.lastUpdate()).toBe(local + 90_000);
  });

  it("the clock's tick and a flood of events share one flush, and only arrivals or removals change the membership", () => {
    const scheduler = manualScheduler();
    const store = new CandidateStore({ schedule: scheduler.schedule });
    const listener = vi.fn();
    store.subscribe(listener);
    const facts = candidateFacts();

    store.merge([facts], NOW);
    const membership = store.getMembership();
    store.tick();
    store.merge([{ ...facts, answered: 4, observedAt: NOW + 1 }], NOW + 1);
    expect(scheduler.pending).toBe(1);
    scheduler.flush();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.getMembership()).toBe(membership);

    store.merge([candidateFacts()], NOW + 2);
    expect(store.getMembership()).toBe(membership + 1);
  });

  it("flushes at most four times a second for a class, once a second for thousands", () => {
    expect(flushIntervalMs(300)).toBe(250);
    expect(flushIntervalMs(10_000)).toBe(1_000);
  });
});
