import { describe, expect, it } from "vitest";

import { describeRiskReason, formatTimeLeft } from "./describe";

describe("the dashboard's words", () => {
  it("keeps every number of a risk reason on the line of its unit", () => {
    expect(describeRiskReason("3 unsynced edits on a device offline for 2 min 31 s")).toBe(
      "3 unsynced edits on a device offline for 2\u00a0min 31\u00a0s",
    );
    expect(describeRiskReason("1 unsynced edit with 45 s left")).toBe("1 unsynced edit with 45\u00a0s left");
  });

  it("writes time left as m:ss, and h:mm:ss from an hour", () => {
    expect(formatTimeLeft(59_999)).toBe("0:59");
    expect(formatTimeLeft(3_600_000)).toBe("1:00:00");
  });
});
