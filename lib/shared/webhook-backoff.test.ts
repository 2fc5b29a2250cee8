import { describe, expect, it } from "vitest";

import { classifyStatus, parseRetryAfter, retryDelayMs } from "./webhook-backoff";

describe("retryDelayMs", () => {
  const schedule = [5, 60, 300];
  it("draws each delay with full jitter below its schedule entry", () => {
    expect(retryDelayMs({ schedule, attemptsMade: 1, random: () => 0.999 })).toBe(4995);
    expect(retryDelayMs({ schedule, attemptsMade: 2, random: () => 0.5 })).toBe(30_000);
    expect(retryDelayMs({ schedule, attemptsMade: 3, random: () => 0 })).toBe(0);
  });
  it("has no retry once the schedule is used up", () => {
    expect(retryDelayMs({ schedule, attemptsMade: 4 })).toBeNull();
    expect(retryDelayMs({ schedule, attemptsMade: 0 })).toBeNull();
  });
  it("honours Retry-After, bounded by the largest entry", () => {
    expect(retryDelayMs({ schedule, attemptsMade: 1, retryAfterMs: 120_000 })).toBe(120_000);
    expect(retryDelayMs({ schedule, attemptsMade: 1, retryAfterMs: 10_000_000 })).toBe(300_000);
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds and HTTP dates", () => {
    expect(parseRetryAfter("7")).toBe(7000);
    const now = Date.parse("2026-12-02T10:00:00Z");
    expect(parseRetryAfter("Wed, 02 Dec 2026 10:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("soon")).toBeNull();
    expect(parseRetryAfter(null)).toBeNull();
  });
});

describe("classifyStatus", () => {
  it("retries what may succeed later and stops on what cannot", () => {
    expect(classifyStatus(204)).toBe("delivered");
    expect(classifyStatus(null)).toBe("retry");
    expect(classifyStatus(503)).toBe("retry");
    expect(classifyStatus(429)).toBe("retry");
    expect(classifyStatus(408)).toBe("retry");
    expect(classifyStatus(410)).toBe("gone");
    expect(classifyStatus(400)).toBe("final");
    expect(classifyStatus(404)).toBe("final");
  });
});
