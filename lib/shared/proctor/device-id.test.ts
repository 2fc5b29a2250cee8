import { describe, expect, it } from "vitest";

import { deviceShortId } from "./device-id";

describe("deviceShortId", () => {
  it("keeps short ids whole and shortens generated ones to 8 characters", () => {
    expect(deviceShortId("laptop")).toBe("laptop");
    expect(deviceShortId("api-1234abcd")).toBe("api-1234abcd");
    expect(deviceShortId("0b6f3c2e-9d41-4c7a-8e5f-2a1b3c4d5e6f")).toBe("0b6f3c2e");
  });
});
