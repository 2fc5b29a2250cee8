import { describe, expect, it } from "vitest";

import {
  describeTimeZone,
  formatClock,
  formatDuration,
  formatInstant,
  formatNumber,
  formatPercent,
  formatWindow,
} from "./format";

describe("formatDuration", () => {
  it.each([
    [5400, "1 hour 30 minutes"],
    [3600, "1 hour"],
    [90, "1 minute 30 seconds"],
    [7261, "2 hours 1 minute 1 second"],
    [0, "0 minutes"],
    [-5, "0 minutes"],
  ])("en: %i s → %s", (seconds, words) => {
    expect(formatDuration(seconds, "en")).toBe(words);
  });

  it.each([
    [5400, "1小时30分钟"],
    [90, "1分钟30秒钟"],
    [0, "0分钟"],
  ])("zh-CN: %i s → %s", (seconds, words) => {
    expect(formatDuration(seconds, "zh-CN").replace(/\s/g, "")).toBe(words);
  });
});

describe("formatInstant and formatClock", () => {
  it("shows instants in the given zone, 24-hour, in the locale's order", () => {
    expect(formatInstant("2026-12-01T08:05:00Z", "en", "UTC")).toBe("Dec 1, 2026, 08:05");
    expect(formatInstant("2026-12-01T08:05:00Z", "en", "Asia/Shanghai")).toBe("Dec 1, 2026, 16:05");
    expect(formatInstant("2026-12-01T08:05:00Z", "zh-CN", "Asia/Shanghai")).toBe("2026年12月1日 16:05");
    expect(formatClock("2026-12-01T23:05:09Z", "en", "UTC")).toBe("23:05:09");
    expect(formatClock("2026-12-01T23:05:09Z", "zh-CN", "UTC", false)).toBe("23:05");
  });

  it("names the zone with its offset", () => {
    expect(describeTimeZone("UTC", "en")).toBe("UTC");
    expect(describeTimeZone("Asia/Shanghai", "en")).toBe("Asia/Shanghai (GMT+8)");
  });
});

describe("numbers", () => {
  it("formats numbers and percentages per locale", () => {
    expect(formatNumber(1234.5, "en")).toBe("1,234.5");
    expect(formatNumber(1234.5, "zh-CN")).toBe("1,234.5");
    expect(formatPercent(0.125, "en")).toBe("12.5%");
  });
});

describe("formatWindow", () => {
  // Stands in for common.window in the catalogs: the key, then the values it was given.
  const words = (key: string, values?: Record<string, string>) =>
    values
      ? `${key}: ${Object.entries(values)
          .map(([name, value]) => `${name}=${value}`)
          .join(", ")}`
      : key;

  it("picks the words for the ends the window has, each end in the screen's zone", () => {
    const opensAt = "2026-12-01T08:00:00Z";
    const closesAt = new Date("2026-12-01T10:30:00Z");
    expect(formatWindow(opensAt, closesAt, words, "en", "Asia/Shanghai")).toBe(
      "range: opensAt=Dec 1, 2026, 16:00, closesAt=Dec 1, 2026, 18:30",
    );
    expect(formatWindow(opensAt, null, words, "zh-CN", "UTC")).toBe("from: opensAt=2026年12月1日 08:00");
    expect(formatWindow(null, closesAt, words, "en", "UTC")).toBe("until: closesAt=Dec 1, 2026, 10:30");
    expect(formatWindow(null, null, words, "en", "UTC")).toBe("always");
  });
});
