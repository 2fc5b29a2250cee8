import { describe, expect, it } from "vitest";

import { extensionMessage } from "./countdown";

describe("extensionMessage", () => {
  it("says how much time the proctor gave, in minutes and seconds, never rounded up", () => {
    expect(extensionMessage(600_000)).toBe("Your proctor gave you 10 more minutes.");
    expect(extensionMessage(60_000)).toBe("Your proctor gave you 1 more minute.");
    expect(extensionMessage(90_000)).toBe("Your proctor gave you 1 more minute and 30 seconds.");
    expect(extensionMessage(45_000)).toBe("Your proctor gave you 45 more seconds.");
  });
});
