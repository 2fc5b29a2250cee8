import { describe, expect, it } from "vitest";

import {
  actorName,
  describeUserAgent,
  deviceSwitches,
  formatDuration,
  groupSaves,
  sortTimeline,
} from "./describe-timeline";

describe("timeline wording", () => {
  it("names browsers plainly", () => {
    expect(
      describeUserAgent(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
      ),
    ).toBe("Chrome on Windows");
    expect(
      describeUserAgent(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1",
      ),
    ).toBe("Safari on iOS");
    expect(describeUserAgent("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0")).toBe(
      "Firefox on Linux",
    );
    expect(describeUserAgent(null)).toBe("an unknown browser");
    expect(describeUserAgent("curl/8.0")).toBe("curl/8.0");
  });

  it("formats durations and actors", () => {
    expect(formatDuration(600_000)).toBe("10 min");
    expect(formatDuration(5_400_000)).toBe("1 h 30 min");
    expect(formatDuration(125_000)).toBe("2 min 5 s");
    expect(formatDuration(400)).toBe("0 s");
    expect(actorName("Ada Lovelace <ada@example.test>")).toBe("Ada Lovelace");
    expect(actorName("API token")).toBe("API token");
  });
});

describe("derived entries", () => {
  it("finds a switch whenever activity comes from another device than the one before", () => {
    const switches = deviceSwitches([
      { at: 3, deviceId: "phone" },
      { at: 1, deviceId: "laptop" },
      { at: 2, deviceId: "laptop" },
      { at: 4, deviceId: "laptop" },
    ]);
    expect(switches.map((entry) => [entry.at, entry.deviceId])).toEqual([
      [3, "phone"],
      [4, "laptop"],
    ]);
    expect(switches[0]!.text).toBe("Switched to device phone (was on device laptop).");
    expect(deviceSwitches([{ at: 1, deviceId: "laptop" }])).toEqual([]);
  });

  it("groups saves per minute and device", () => {
    const minute = 60_000 * 1000;
    const groups = groupSaves(
      [
        { savedAt: minute + 1_000, deviceId: "a" },
        { savedAt: minute + 50_000, deviceId: "a" },
        { savedAt: minute + 20_000, deviceId: "a" },
        { savedAt: minute + 61_000, deviceId: "a" },
      ],
      false,
    );
    expect(groups).toEqual([
      {
        at: minute + 1_000,
        kind: "saves",
        text: "Saved 3 answers.",
        facts: { count: 3, device: null },
        deviceId: "a",
        until: minute + 50_000,
      },
      {
        at: minute + 61_000,
        kind: "saves",
        text: "Saved 1 answer.",
        facts: { count: 1, device: null },
        deviceId: "a",
        until: minute + 61_000,
      },
    ]);
    expect(groupSaves([{ savedAt: 1, deviceId: "b" }], true)[0]!.text).toBe("Saved 1 answer from device b.");
  });

  it("sorts oldest first, and by kind at the same instant", () => {
    const sorted = sortTimeline([
      { at: 5, kind: "saves", text: "", facts: { count: 1, device: null } },
      { at: 1, kind: "started", text: "", facts: {} },
      { at: 1, kind: "enrolled", text: "", facts: {} },
    ]);
    expect(sorted.map((entry) => entry.kind)).toEqual(["enrolled", "started", "saves"]);
  });
});
