import { describe, expect, it } from "vitest";

import { acceptsUntil, computeDeadline } from "./deadline";

const start = new Date("2026-12-01T08:00:00Z");

describe("computeDeadline", () => {
  it("is start + duration + extra time when the exam does not close earlier", () => {
    expect(
      computeDeadline({ startedAt: start, durationSeconds: 3600, extraSeconds: 900, closesAt: null }).toISOString(),
    ).toBe("2026-12-01T09:15:00.000Z");
  });

  it("is capped by the exam's close time", () => {
    const closesAt = new Date("2026-12-01T08:30:00Z");
    expect(computeDeadline({ startedAt: start, durationSeconds: 3600, extraSeconds: 0, closesAt })).toEqual(closesAt);
  });

  it("uses the duration when it ends before the close time", () => {
    const closesAt = new Date("2026-12-01T12:00:00Z");
    expect(computeDeadline({ startedAt: start, durationSeconds: 600, extraSeconds: 0, closesAt }).toISOString()).toBe(
      "2026-12-01T08:10:00.000Z",
    );
  });
});

describe("acceptsUntil", () => {
  it("adds the grace period", () => {
    expect(acceptsUntil(start, 90).toISOString()).toBe("2026-12-01T08:01:30.000Z");
  });
});
