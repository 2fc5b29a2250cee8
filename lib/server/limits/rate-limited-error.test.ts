import { describe, expect, it } from "vitest";

import { rateLimitedError, retryAfterSeconds } from "./rate-limited-error";

describe("retryAfterSeconds", () => {
  it("rounds up to whole seconds and never says less than 1", () => {
    expect(retryAfterSeconds(0)).toBe(1);
    expect(retryAfterSeconds(-1)).toBe(1);
    expect(retryAfterSeconds(1)).toBe(1);
    expect(retryAfterSeconds(1000)).toBe(1);
    expect(retryAfterSeconds(1001)).toBe(2);
    expect(retryAfterSeconds(9_500)).toBe(10);
    expect(retryAfterSeconds(Number.NaN)).toBe(1);
  });
});

describe("rateLimitedError", () => {
  it("is a 429 RATE_LIMITED with Retry-After and a message the candidate can read", () => {
    const error = rateLimitedError(2_300);
    expect(error.status).toBe(429);
    expect(error.code).toBe("RATE_LIMITED");
    expect(error.headers).toEqual({ "Retry-After": "3" });
    expect(error.toBody()).toEqual({
      error: {
        code: "RATE_LIMITED",
        message: "Saved on your device; the server is busy; retrying in 3 s.",
        details: { retryAfterSeconds: 3 },
      },
    });
  });
});
