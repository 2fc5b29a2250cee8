import { describe, expect, it } from "vitest";

import { instantToZonedInput, zonedInputToInstant } from "./zoned-time";

describe("datetime-local values in a named time zone", () => {
  it("reads a wall-clock time in the zone, not the machine's", () => {
    expect(zonedInputToInstant("2026-12-01T09:30", "Asia/Shanghai")?.toISOString()).toBe("2026-12-01T01:30:00.000Z");
    expect(zonedInputToInstant("2026-12-01T09:30", "UTC")?.toISOString()).toBe("2026-12-01T09:30:00.000Z");
    expect(zonedInputToInstant("2026-07-01T09:30", "Europe/Berlin")?.toISOString()).toBe("2026-07-01T07:30:00.000Z");
    expect(zonedInputToInstant("2026-12-01T09:30", "Europe/Berlin")?.toISOString()).toBe("2026-12-01T08:30:00.000Z");
  });

  it("writes an instant back as the same wall-clock value (round trip)", () => {
    for (const zone of ["Asia/Shanghai", "America/New_York", "UTC", "Europe/Berlin"]) {
      const instant = zonedInputToInstant("2026-03-29T12:15", zone)!;
      expect(instantToZonedInput(instant, zone)).toBe("2026-03-29T12:15");
    }
  });

  it("refuses what is not a datetime-local value", () => {
    expect(zonedInputToInstant("", "UTC")).toBeNull();
    expect(zonedInputToInstant("2026-12-01", "UTC")).toBeNull();
  });
});
