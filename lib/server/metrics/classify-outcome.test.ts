import { describe, expect, it } from "vitest";

import { classifyOutcome } from "./classify-outcome";

function response(status: number, headers: Record<string, string> = {}) {
  return { status, headers: new Headers(headers) };
}

describe("classifyOutcome", () => {
  it("maps statuses to the outcome labels", () => {
    expect(classifyOutcome(response(200))).toBe("ok");
    expect(classifyOutcome(response(200, { "Idempotent-Replayed": "true" }))).toBe("replayed");
    expect(classifyOutcome(response(409))).toBe("conflict");
    expect(classifyOutcome(response(429))).toBe("limited");
    for (const status of [400, 401, 404, 413, 422]) expect(classifyOutcome(response(status))).toBe("rejected");
    expect(classifyOutcome(response(500))).toBe("error");
    expect(classifyOutcome(response(503))).toBe("error");
    expect(classifyOutcome(response(503), "UNAVAILABLE")).toBe("error");
  });

  it("counts a request shed by admission control (503 OVERLOADED) as limited, not as an error", () => {
    expect(classifyOutcome(response(503, { "Retry-After": "2" }), "OVERLOADED")).toBe("limited");
  });
});
