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
    for (const kind of ["autosave", "heartbeat", "other"] as const)
      expect(decideAdmission(kind, { inFlight: 29, eventLoopDelayMs: 140 }, bounds)).toEqual({ isAdmitted: true });
  });

  it("sheds heartbeats first, then autosaves and other requests alike", () => {
    const at = (inFlight: number) => ({
      heartbeat: decideAdmission("heartbeat", { inFlight, eventLoopDelayMs: 0 }, bounds).isAdmitted,
      autosave: decideAdmission("autosave", { inFlight, eventLoopDelayMs: 0 }, bounds).isAdmitted,
      other: decideAdmission("other", { inFlight, eventLoopDelayMs: 0 }, bounds).isAdmitted,
    });
    expect(at(29)).toEqual({ heartbeat: true, autosave: true, other: true });
    expect(at(30)).toEqual({ heartbeat: false, autosave: true, other: true });
    expect(at(39)).toEqual({ heartbeat: false, autosave: true, other: true });
    expect(at(40)).toEqual({ heartbeat: false, autosave: false, other: false });
  });

  it("refuses on event-loop delay once a few requests are in flight, by the same shares", () => {
    const busy = (eventLoopDelayMs: number) => ({ inFlight: MIN_IN_FLIGHT_FOR_DELAY, eventLoopDelayMs });
    expect(decideAdmission("heartbeat", busy(150), bounds).isAdmitted).toBe(false);
    expect(decideAdmission("autosave", busy(199), bounds).isAdmitted).toBe(true);
    expect(decideAdmission("autosave", busy(200), bounds)).toEqual({ isAdmitted: false, retryAfterSeconds: 2 });
  });

  it("admits a request on a delayed event loop with almost nothing in flight (a route loading at start-up)", () => {
    for (const kind of ["autosave", "heartbeat", "other"] as const) {
      for (let inFlight = 0; inFlight < MIN_IN_FLIGHT_FOR_DELAY; inFlight += 1)
        expect(decideAdmission(kind, { inFlight, eventLoopDelayMs: 5_000 }, bounds)).toEqual({ isAdmitted: true });
      expect(
        decideAdmission(kind, { inFlight: MIN_IN_FLIGHT_FOR_DELAY, eventLoopDelayMs: 5_000 }, bounds).isAdmitted,
      ).toBe(false);
    }
  });

  it("while submits are arriving, autosaves and heartbeats yield sooner; sign-in and staff requests do not", () => {
    const rush = (inFlight: number, eventLoopDelayMs = 0) => ({ inFlight, eventLoopDelayMs, isSubmitRush: true });
    expect(decideAdmission("autosave", rush(15), bounds).isAdmitted).toBe(true);
    expect(decideAdmission("autosave", rush(16), bounds)).toEqual({ isAdmitted: false, retryAfterSeconds: 2 });
    expect(decideAdmission("heartbeat", rush(11), bounds).isAdmitted).toBe(true);
    expect(decideAdmission("heartbeat", rush(12), bounds).isAdmitted).toBe(false);
    expect(decideAdmission("other", rush(39), bounds).isAdmitted).toBe(true);
    expect(decideAdmission("autosave", rush(MIN_IN_FLIGHT_FOR_DELAY, 79), bounds).isAdmitted).toBe(true);
    expect(decideAdmission("autosave", rush(MIN_IN_FLIGHT_FOR_DELAY, 80), bounds).isAdmitted).toBe(false);
    // The same load without submits arriving admits them all.
    for (const kind of ["autosave", "heartbeat", "other"] as const)
      expect(decideAdmission(kind, { inFlight: 16, eventLoopDelayMs: 80 }, bounds).isAdmitted).toBe(true);
    expect(decideAdmission("autosave", idle, bounds).isAdmitted).toBe(true);
  });

  it("counts submits waiting their turn as in flight for autosaves and heartbeats, not for sign-in and staff requests", () => {
    const waiting = (submitsWaiting: number) => ({
      inFlight: 10,
      eventLoopDelayMs: 0,
      isSubmitRush: true,
      submitsWaiting,
    });
    // Rush shares of a bound of 40: autosaves from 16, heartbeats from 12, the others at 40.
    expect(decideAdmission("autosave", waiting(5), bounds).isAdmitted).toBe(true);
    expect(decideAdmission("autosave", waiting(6), bounds).isAdmitted).toBe(false);
    expect(decideAdmission("heartbeat", waiting(2), bounds).isAdmitted).toBe(false);
    expect(decideAdmission("other", waiting(3_000), bounds).isAdmitted).toBe(true);
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
    first();
    first(); // releasing twice counts once
    second();
    expect(controller.load().inFlight).toBe(0);
    controller.enter("autosave")();
  });

  it("never refuses a submit for load: it runs in its turn, counted in flight while it works, not while it waits", async () => {
    const controller = createAdmissionController(
      { maxInFlight: 1, maxEventLoopDelayMs: 0 },
      { places: 1, maxWaiting: 100 },
    );
    const busy = controller.enter("other");
    let finishFirst!: () => void;
    const first = controller.runSubmit(() => new Promise<string>((done) => (finishFirst = () => done("first"))));
    const second = controller.runSubmit(() => Promise.resolve("second"));
    await Promise.resolve();
    // One working (with the other request: 2, past the bound of 1), one waiting and not counted.
    expect(controller.load().inFlight).toBe(2);
    expect(controller.submitQueue()).toMatchObject({ working: 1, waiting: 1 });
    finishFirst();
    expect(await Promise.all([first, second])).toEqual(["first", "second"]);
    expect(controller.load().inFlight).toBe(1);
    busy();
    expect(controller.load().inFlight).toBe(0);
  });

  it("remembers when a submit last arrived (the results worker waits while they arrive), not other requests", async () => {
    const controller = createAdmissionController({ maxInFlight: 1, maxEventLoopDelayMs: 0 });
    expect(controller.load().lastSubmitAtMs).toBe(0);
    controller.enter("autosave")();
    controller.enter("heartbeat")();
    expect(controller.load().lastSubmitAtMs).toBe(0);
    const before = Date.now();
    await controller.runSubmit(() => Promise.resolve());
    expect(controller.load().lastSubmitAtMs).toBeGreaterThanOrEqual(before);
    expect(controller.load().lastSubmitAtMs).toBeLessThanOrEqual(Date.now());
  });

  describe("a submit arriving in the last second, or waiting its turn", () => {
    afterEach(() => vi.useRealTimers());

    it("makes autosaves yield sooner until a second has passed without one", async () => {
      vi.useFakeTimers();
      const controller = createAdmissionController({ maxInFlight: 10, maxEventLoopDelayMs: 0 });
      const held = Array.from({ length: 4 }, () => controller.enter("other"));
      // 4 in flight: under an autosave's bound of 10, not under its 0.4 share of it while submits arrive.
      controller.enter("autosave")();
      await controller.runSubmit(() => Promise.resolve());
      expect(() => controller.enter("autosave")).toThrow(expect.objectContaining({ code: "OVERLOADED" }));
      vi.advanceTimersByTime(SUBMIT_RUSH_MS - 1);
      expect(() => controller.enter("autosave")).toThrow(expect.objectContaining({ code: "OVERLOADED" }));
      vi.advanceTimersByTime(1);
      controller.enter("autosave")();
      for (const release of held) release();
    });

    it("makes autosaves yield for as long as submits wait in the queue, past the second", async () => {
      vi.useFakeTimers();
      const controller = createAdmissionController(
        { maxInFlight: 10, maxEventLoopDelayMs: 0 },
        { places: 1, maxWaiting: 100 },
      );
      const held = Array.from({ length: 4 }, () => controller.enter("other"));
      let finish!: () => void;
      const working = controller.runSubmit(() => new Promise<void>((done) => (finish = done)));
      const waiting = controller.runSubmit(() => Promise.resolve());
      vi.advanceTimersByTime(SUBMIT_RUSH_MS * 5);
      expect(() => controller.enter("autosave")).toThrow(expect.objectContaining({ code: "OVERLOADED" }));
      finish();
      await Promise.all([working, waiting]);
      vi.advanceTimersByTime(SUBMIT_RUSH_MS);
      controller.enter("autosave")();
      for (const release of held) release();
    });
  });
});
