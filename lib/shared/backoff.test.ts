import fc from "fast-check";
import { describe, expect, it } from "vitest";

import {
  BACKOFF,
  BREAKER_DEFAULTS,
  CLOSED_BREAKER,
  backoffDelay,
  breakerBeforeRequest,
  breakerForceProbe,
  breakerOnRetryable,
  breakerOnSuccess,
  breakerReadyAt,
  classifySyncResponse,
  parseRetryAfterMs,
  retryAfterHold,
  retryAfterReadyAt,
  type BreakerState,
} from "./backoff";

describe("backoffDelay (full jitter, 0.5 s doubling to 8 s)", () => {
  it("spans the whole window: 0 … min(8 s, 0.5 s · 2^attempt)", () => {
    expect(backoffDelay(0, () => 0)).toBe(0);
    expect(backoffDelay(0, () => 0.999_999)).toBe(499);
    expect(backoffDelay(1, () => 0.5)).toBe(500);
    expect(backoffDelay(3, () => 0.5)).toBe(2_000);
    expect(backoffDelay(4, () => 0.999_999)).toBe(7_999);
    expect(backoffDelay(50, () => 0.999_999)).toBe(7_999);
    expect(backoffDelay(5_000, () => 1)).toBe(BACKOFF.capMs);
  });

  it("is never above the cap and never below Retry-After, for any attempt and random value", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.option(fc.integer({ min: 0, max: 120_000 }), { nil: null }),
        (attempt, unit, retryAfterMs) => {
          const delay = backoffDelay(attempt, () => unit, retryAfterMs);
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeGreaterThanOrEqual(retryAfterMs ?? 0);
          expect(delay).toBeLessThanOrEqual(Math.max(BACKOFF.capMs, retryAfterMs ?? 0));
          expect(delay).toBeLessThanOrEqual(
            Math.max(Math.min(BACKOFF.capMs, BACKOFF.baseMs * 2 ** attempt), retryAfterMs ?? 0),
          );
        },
      ),
    );
  });

  it("honours a Retry-After longer than the cap", () => {
    expect(backoffDelay(0, () => 0, 30_000)).toBe(30_000);
  });

  it("clamps a misbehaving random source into the window", () => {
    expect(backoffDelay(2, () => -3)).toBe(0);
    expect(backoffDelay(2, () => 7)).toBe(2_000);
  });
});

describe("parseRetryAfterMs", () => {
  const now = Date.parse("2026-12-01T09:00:00Z");
  it("reads delta-seconds and HTTP dates", () => {
    expect(parseRetryAfterMs("3", now)).toBe(3_000);
    expect(parseRetryAfterMs(" 0 ", now)).toBe(0);
    expect(parseRetryAfterMs("Tue, 01 Dec 2026 09:00:05 GMT", now)).toBe(5_000);
    expect(parseRetryAfterMs("Tue, 01 Dec 2026 08:00:00 GMT", now)).toBe(0);
  });
  it("is null when absent or unreadable", () => {
    expect(parseRetryAfterMs(null, now)).toBeNull();
    expect(parseRetryAfterMs("", now)).toBeNull();
    expect(parseRetryAfterMs("soon", now)).toBeNull();
    expect(parseRetryAfterMs("-1", now)).toBeNull();
  });
});

describe("a Retry-After's hold", () => {
  it("holds back the kind of request it answered; a submit only by a submit's own", () => {
    const afterAutosave = retryAfterHold(2_000, 10_000, false);
    expect(retryAfterReadyAt(afterAutosave, false)).toBe(12_000);
    expect(retryAfterReadyAt(afterAutosave, true)).toBe(0);
    const afterSubmit = retryAfterHold(1_000, 10_000, true);
    expect(retryAfterReadyAt(afterSubmit, true)).toBe(11_000);
    expect(retryAfterReadyAt(afterSubmit, false)).toBe(11_000);
  });
  it("holds nothing without a Retry-After, or with one of 0", () => {
    for (const ms of [null, 0]) {
      expect(retryAfterReadyAt(retryAfterHold(ms, 10_000, false), false)).toBe(0);
      expect(retryAfterReadyAt(retryAfterHold(ms, 10_000, true), true)).toBe(0);
    }
  });
});

describe("the circuit breaker", () => {
  const fail = (state: BreakerState, at: number) => breakerOnRetryable(state, at, null);

  it("stays closed below the threshold, opens at 5 failures in a row", () => {
    let state = CLOSED_BREAKER;
    for (let i = 1; i < BREAKER_DEFAULTS.failureThreshold; i += 1) {
      state = fail(state, 1_000);
      expect(state).toEqual({ kind: "closed", failures: i });
      expect(breakerReadyAt(state)).toBe(0);
    }
    state = fail(state, 1_000);
    expect(state).toEqual({ kind: "open", failures: 5, openUntil: 21_000 });
    expect(breakerReadyAt(state)).toBe(21_000);
  });

  it("lets one probe through after the cool-down; a failed probe opens it again, a success closes it", () => {
    const open: BreakerState = { kind: "open", failures: 5, openUntil: 21_000 };
    expect(breakerBeforeRequest(open, 20_999)).toBe(open);
    const probing = breakerBeforeRequest(open, 21_000);
    expect(probing).toEqual({ kind: "half-open", failures: 5 });
    expect(fail(probing, 21_500)).toEqual({ kind: "open", failures: 6, openUntil: 41_500 });
    expect(breakerOnSuccess()).toEqual({ kind: "closed", failures: 0 });
  });

  it("a strong signal (online, a click) probes at once; it does nothing to a closed breaker", () => {
    expect(breakerForceProbe({ kind: "open", failures: 7, openUntil: 99_000 })).toEqual({
      kind: "half-open",
      failures: 7,
    });
    expect(breakerForceProbe({ kind: "closed", failures: 2 })).toEqual({ kind: "closed", failures: 2 });
  });

  it("is not opened by answers that came with a Retry-After (the server pacing), however many in a row", () => {
    let state = CLOSED_BREAKER;
    for (let i = 1; i <= 3 * BREAKER_DEFAULTS.failureThreshold; i += 1) {
      state = breakerOnRetryable(state, 1_000, i % 2 === 0 ? 0 : 3_000);
      expect(state).toEqual({ kind: "closed", failures: i });
      expect(breakerReadyAt(state)).toBe(0);
    }
    // The streak still counts: the next failure without a Retry-After opens it.
    expect(breakerOnRetryable(state, 2_000, null)).toEqual({ kind: "open", failures: 16, openUntil: 22_000 });
  });

  it("counts an answer without a Retry-After as a failure, and closes on a paced answer to a probe", () => {
    let state = CLOSED_BREAKER;
    for (let i = 1; i <= BREAKER_DEFAULTS.failureThreshold; i += 1) state = breakerOnRetryable(state, 1_000, null);
    expect(state).toEqual({ kind: "open", failures: 5, openUntil: 21_000 });
    const probing = breakerBeforeRequest(state, 21_000);
    expect(breakerOnRetryable(probing, 21_500, null)).toEqual({ kind: "open", failures: 6, openUntil: 41_500 });
    expect(breakerOnRetryable(probing, 21_500, 1_000)).toEqual({ kind: "closed", failures: 6 });
  });

  it("takes its numbers from options", () => {
    expect(breakerOnRetryable(CLOSED_BREAKER, 0, null, { failureThreshold: 1, coolDownMs: 5 })).toEqual({
      kind: "open",
      failures: 1,
      openUntil: 5,
    });
  });
});

describe("classifySyncResponse (contract: Client retry discipline)", () => {
  it.each([
    [null, null, "retry"],
    [0, null, "retry"],
    [200, null, "ok"],
    [201, null, "ok"],
    [500, "INTERNAL", "retry"],
    [502, null, "retry"],
    [503, "UNAVAILABLE", "retry"],
    [429, "RATE_LIMITED", "retry"],
    [409, "REQUEST_IN_PROGRESS", "retry"],
    [409, "ALREADY_SUBMITTED", "closed"],
    [409, "DEADLINE_PASSED", "closed"],
    [409, "EXAM_CLOSED", "final"],
    [409, null, "final"],
    [400, "BAD_REQUEST", "final"],
    [401, "UNAUTHENTICATED", "final"],
    [404, "NOT_FOUND", "final"],
    [413, "PAYLOAD_TOO_LARGE", "final"],
    [422, "VALIDATION_FAILED", "final"],
    [422, "IDEMPOTENCY_KEY_REUSED", "final"],
  ] as const)("%s %s → %s", (status, code, expected) => {
    expect(classifySyncResponse(status, code)).toBe(expected);
  });
});
