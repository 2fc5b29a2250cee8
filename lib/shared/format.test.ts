import { describe, expect, it } from "vitest";

import { formatDuration, formatInstant, formatWindow } from "./format";

describe("formatDuration", () => {
  it.each([
    [5400, "1 hour 30 minutes"],
    [3600, "1 hour"],
    [90, "1 minute 30 seconds"],
    [7261, "2 hours 1 minute 1 second"],
    [0, "0 minutes"],
    [-5, "0 minutes"],
  ])("%i s → %s", (seconds, words) => {
    expect(formatDuration(seconds)).toBe(words);
  });
});

describe("formatInstant and formatWindow", () => {
  it("shows instants in UTC, labelled", () => {
    expect(formatInstant("2026-12-01T08:05:00Z")).toBe("1 Dec 2026, 08:05 UTC");
  });

  it("describes every kind of window", () => {
    const opens = new Date("2026-12-01T08:00:00Z");
    const closes = new Date("2026-12-01T12:00:00Z");
    expect(formatWindow(null, null)).toBe("Always open");
    expect(formatWindow(opens, closes)).toBe("1 Dec 2026, 08:00 UTC to 1 Dec 2026, 12:00 UTC");
    expect(formatWindow(opens, null)).toBe("From 1 Dec 2026, 08:00 UTC, no closing time");
    expect(formatWindow(null, closes)).toBe("Until 1 Dec 2026, 12:00 UTC");
  });
});
