import { describe, expect, it } from "vitest";

import {
  BUSY_AFTER_SUBMIT_MS,
  BUSY_EVENT_LOOP_DELAY_MS,
  BUSY_IN_FLIGHT,
  isBusy,
  MAX_DEFERRAL_MS,
  shouldDrainNow,
  type WorkerLoad,
} from "./results-worker-pace";

const QUIET: WorkerLoad = { inFlight: 3, poolWaiting: 0, eventLoopDelayMs: 12, msSinceSubmit: Infinity };

describe("the results worker's pace", () => {
  it("counts the instance busy when a request waits for a connection, or past either bound", () => {
    expect(isBusy(QUIET)).toBe(false);
    expect(isBusy({ ...QUIET, poolWaiting: 1 })).toBe(true);
    expect(isBusy({ ...QUIET, inFlight: BUSY_IN_FLIGHT - 1 })).toBe(false);
    expect(isBusy({ ...QUIET, inFlight: BUSY_IN_FLIGHT })).toBe(true);
    expect(isBusy({ ...QUIET, eventLoopDelayMs: BUSY_EVENT_LOOP_DELAY_MS - 1 })).toBe(false);
    expect(isBusy({ ...QUIET, eventLoopDelayMs: BUSY_EVENT_LOOP_DELAY_MS })).toBe(true);
  });

  it("counts submits still arriving as busy: a storm's first jobs wait for its last submits", () => {
    expect(isBusy({ ...QUIET, msSinceSubmit: 0 })).toBe(true);
    expect(isBusy({ ...QUIET, msSinceSubmit: BUSY_AFTER_SUBMIT_MS - 1 })).toBe(true);
    expect(isBusy({ ...QUIET, msSinceSubmit: BUSY_AFTER_SUBMIT_MS })).toBe(false);
  });

  it("scores while quiet, lets a busy spell pass, and scores anyway once it has waited long enough", () => {
    const busy = { ...QUIET, poolWaiting: 4 };
    expect(shouldDrainNow(QUIET, null, 1_000)).toBe(true);
    expect(shouldDrainNow(QUIET, 0, 1_000)).toBe(true);
    expect(shouldDrainNow(busy, null, 1_000)).toBe(false);
    expect(shouldDrainNow(busy, 1_000, 1_000 + MAX_DEFERRAL_MS - 1)).toBe(false);
    expect(shouldDrainNow(busy, 1_000, 1_000 + MAX_DEFERRAL_MS)).toBe(true);
  });
});
