import { describe, expect, it } from "vitest";

import { examAvailability } from "./exam-availability";

const now = new Date("2026-12-01T10:00:00Z");
const hour = 3_600_000;

describe("examAvailability", () => {
  it.each([
    ["published, no window", { status: "published", opensAt: null, closesAt: null }, "open"],
    [
      "published, inside its window",
      { status: "published", opensAt: new Date(now.getTime() - hour), closesAt: new Date(now.getTime() + hour) },
      "open",
    ],
    [
      "published, opening later",
      { status: "published", opensAt: new Date(now.getTime() + hour), closesAt: null },
      "not_open",
    ],
    ["draft", { status: "draft", opensAt: null, closesAt: null }, "not_open"],
    ["closed by status", { status: "closed", opensAt: null, closesAt: null }, "closed"],
    ["past its close time", { status: "published", opensAt: null, closesAt: now }, "closed"],
    [
      "a draft past its close time",
      { status: "draft", opensAt: null, closesAt: new Date(now.getTime() - 1) },
      "closed",
    ],
  ] as const)("%s → %s", (_name, exam, expected) => {
    expect(examAvailability(exam, now)).toBe(expected);
  });
});
