import { afterEach, describe, expect, it, vi } from "vitest";

import {
  createAdmissionController,
  decideAdmission,
  MIN_IN_FLIGHT_FOR_DELAY,
  SUBMIT_RUSH_MS,
  type AdmissionBounds,
} from "./admission";

const bounds: AdmissionBounds = { maxInFlight: 40, maxEventLoopDelayMs: 200 };
const idle = { inFlight: 0, eventLoopDelayMs: 0 };

describe("decideAdmission", () => {
  it("admits everything while the instance is under its bounds", () => {
    for (const kind of ["submit", "autosave", "heartbeat", "other"] as const)
      expect(decideAdmission(kind, { inFlight: 29, eventLoopDelayMs: 140 }, bounds)).toEqual({ isAdmitted: true });
  });

  it("sheds heartbeats first, then autosaves and other requests alike, and keeps a reserve for submits", () => {
    const at = (inFlight: number) => ({
      heartbeat: decideAdmission("heartbeat", { inFlight, eventLoopDelayMs: 0 }, bounds).isAdmitted,
      autosave: decideAdmission("autosave", { inFlight, eventLoopDelayMs: 0 }, bounds).isAdmitted,
      other: decideAdmission("other", { inFlight, eventLoopDelayMs: 0 }, bounds).isAdmitted,
      submit: decideAdmission("submit", { inFlight, eventLoopDelayMs: 0 }, bounds).isAdmitted,
    });
    expect(at(30)).toEqual({ heartbeat: false, autosave: true, other: true, submit: true });
    expect(at(40)).toEqual({ heartbeat: false, autosave: false, other: false, submit: true });
    expect(at(79)).toEqual({ heartbeat: false, autosave: false, other: false, submit: true });
    expect(at(80)).toEqual({ heartbeat: false, autosave: false, other: false, submit: false });
  });

  it("refuses on event-loop delay once a few requests are in flight, by the same shares", () => {
    const busy = (eventLoopDelayMs: number) => ({ inFlight: MIN_IN_FLIGHT_FOR_DELAY, eventLoopDelayMs });
    expect(decideAdmission("heartbeat", busy(150), bounds).isAdmitted).toBe(false);
    expect(decideAdmission("autosave", busy(199), bounds).isAdmitted).toBe(true);
    expect(decideAdmission("autosave", busy(200), bounds)).toEqual({ isAdmitted: false, retryAfterSeconds: 2 });
    expect(decideAdmission("submit", busy(399), bounds).isAdmitted).toBe(true);
    expect(decideAdmission("submit", busy(400), bounds)).toEqual({ isAdmitted: false, retryAfterSeconds: 1 });
  });

  it("admits a request on a delayed event loop with almost nothing in flight (a route loading at start-up)", () => {
    for (const kind of ["submit", "autosave", "heartbeat", "other"] as const) {
      for (let inFlight = 0; inFlight < MIN_IN_FLIGHT_FOR_DELAY; inFlight += 1)
        expect(decideAdmission(kind, { inFlight, eventLoopDelayMs: 5_000 }, bounds)).toEqual({ isAdmitted: true });
      expect(
        decideAdmission(kind, { inFlight: MIN_IN_FLIGHT_FOR_DELAY, eventLoopDelayMs: 5_000 }, bounds).isAdmitted,
      ).toBe(false);
    }
  });

  it("while submits are arriving, autosaves and heartbeats yield sooner; sign-in and staff requests and submits do not", () => {
    const rush = (inFlight: number, eventLoopDelayMs = 0) => ({ inFlight, eventLoopDelayMs, isSubmitRush: true });
    expect(decideAdmission("autosave", rush(15), bounds).isAdmitted).toBe(true);
    expect(decideAdmission("autosave", rush(16), bounds)).toEqual({ isAdmitted: false, retryAfterSeconds: 2 });
    expect(decideAdmission("heartbeat", rush(11), bounds).isAdmitted).toBe(true);
    expect(decideAdmission("heartbeat", rush(12), bounds).isAdmitted).toBe(false);
    expect(decideAdmission("other", rush(39), bounds).isAdmitted).toBe(true);
    expect(decideAdmission("submit", rush(79), bounds).isAdmitted).toBe(true);
    expect(decideAdmission("autosave", rush(MIN_IN_FLIGHT_FOR_DELAY, 79), bounds).isAdmitted).toBe(true);
    expect(decideAdmission("autosave", rush(MIN_IN_FLIGHT_FOR_DELAY, 80), bounds).isAdmitted).toBe(false);
    expect(decideAdmission("submit", rush(MIN_IN_FLIGHT_FOR_DELAY, 399), bounds).isAdmitted).toBe(true);
    // The same load without submits arriving admits them all.
    for (const kind of ["submit", "autosave", "heartbeat", "other"] as const)
      expect(decideAdmission(kind, { inFlight: 16, eventLoopDelayMs: 80 }, bounds).isAdmitted).toBe(true);
    expect(decideAdmission("autosave", idle, bounds).isAdmitted).toBe(true);
  });

  it("a bound of 0 is off", () => {
    const off = { maxInFlight: 0, maxEventLoopDelayMs: 0 };
    expect(decideAdmission("heartbeat", { inFlight: 1e6, eventLoopDelayMs: 1e6 }, off).isAdmitted).toBe(true);
    expect(decideAdmission("heartbeat", idle, bounds).isAdmitted).toBe(true);
  });
});

describe("createAdmissionController", () => {
  it("counts requests in flight, refuses past the bound with 503 OVERLOADED and Retry-After, and admits again once they end", () => {
    const controller = createAdmissionController({ maxInFlight: 2, maxEventLoopDelayMs: 0 });
    const first = controller.enter("autosave");
    const second = controller.enter("autosave");
    expect(controller.load().inFlight).toBe(2);
    expect(() => controller.enter("autosave")).toThrow(
      expect.objectContaining({ code: "OVERLOADED", headers: { "Retry-After": "2" } }),
    );
    const submit = controller.enter("submit");
    expect(controller.load().inFlight).toBe(3);
    first();
    first(); // releasing twice counts once
    second();
    submit();
    expect(controller.load().inFlight).toBe(0);
    controller.enter("autosave")();
  });

  it("remembers when it last admitted a submit (the results worker waits while they arrive), not other requests", () => {
    const controller = createAdmissionController({ maxInFlight: 1, maxEventLoopDelayMs: 0 });
    expect(controller.load().lastSubmitAtMs).toBe(0);
    controller.enter("autosave")();
    controller.enter("heartbeat")();
    expect(controller.load().lastSubmitAtMs).toBe(0);
    const before = Date.now();
    controller.enter("submit")();
    expect(controller.load().lastSubmitAtMs).toBeGreaterThanOrEqual(before);
    expect(controller.load().lastSubmitAtMs).toBeLessThanOrEqual(Date.now());
  });

  describe("a submit admitted in the last second", () => {
    afterEach(() => vi.useRealTimers());

    it("makes autosaves yield sooner until a second has passed without one", () => {
      vi.useFakeTimers();
      const controller = createAdmissionController({ maxInFlight: 10, maxEventLoopDelayMs: 0 });
      const held = Array.from({ length: 4 }, () => controller.enter("other"));
      // 4 in flight: under an autosave's bound of 10, not under its 0.4 share of it while submits arrive.
      controller.enter("autosave")();
      const submit = controller.enter("submit");
      submit();
      expect(() => controller.enter("autosave")).toThrow(expect.objectContaining({ code: "OVERLOADED" }));
      vi.advanceTimersByTime(SUBMIT_RUSH_MS - 1);
      expect(() => controller.enter("autosave")).toThrow(expect.objectContaining({ code: "OVERLOADED" }));
      vi.advanceTimersByTime(1);
      controller.enter("autosave")();
      for (const release of held) release();
    });
  });
});
