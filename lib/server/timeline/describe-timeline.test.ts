import { describe, expect, it } from "vitest";

import { proctorWords } from "@/lib/shared/proctor/describe";
import { translatorFor } from "@/test-support/shared/translator";

import { actorName, deviceSwitches, groupSaves, parseUserAgent, sortTimeline } from "./describe-timeline";

// The facts are the server's; their words (the API's English `text` too) are the dashboard's, over the
// English catalog (the durations' wording is tested with them, in lib/shared/proctor/describe.test.ts).
const english = proctorWords(translatorFor("en", "proctor"), "en", "UTC");

describe("timeline wording", () => {
  it("names browsers plainly", () => {
    const joinedOn = (userAgent: string | null) =>
      english.timelineLine({ at: 0, kind: "joined", facts: parseUserAgent(userAgent) });
    expect(
      joinedOn(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
      ),
    ).toBe("Joined on Chrome on Windows.");
    expect(
      joinedOn(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1",
      ),
    ).toBe("Joined on Safari on iOS.");
    expect(joinedOn("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0")).toBe(
      "Joined on Firefox on Linux.",
    );
    expect(joinedOn(null)).toBe("Joined on an unknown browser.");
    expect(joinedOn("curl/8.0")).toBe("Joined on curl/8.0.");
  });

  it("names actors", () => {
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
    expect(english.timelineLine(switches[0]!)).toBe("Switched to device phone (was on device laptop).");
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
      { at: minute + 1_000, kind: "saves", facts: { count: 3, device: null }, deviceId: "a", until: minute + 50_000 },
      { at: minute + 61_000, kind: "saves", facts: { count: 1, device: null }, deviceId: "a", until: minute + 61_000 },
    ]);
    expect(groups.map((group) => english.timelineLine(group))).toEqual(["Saved 3 answers.", "Saved 1 answer."]);
    expect(english.timelineLine(groupSaves([{ savedAt: 1, deviceId: "b" }], true)[0]!)).toBe(
      "Saved 1 answer from device b.",
    );
  });

  it("sorts oldest first, and by kind at the same instant", () => {
    const sorted = sortTimeline([
      { at: 5, kind: "saves", facts: { count: 1, device: null } },
      { at: 1, kind: "started", facts: {} },
      { at: 1, kind: "enrolled", facts: {} },
    ]);
    expect(sorted.map((entry) => entry.kind)).toEqual(["enrolled", "started", "saves"]);
  });
});
