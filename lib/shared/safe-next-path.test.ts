import { describe, expect, it } from "vitest";

import { safeNextPath } from "./safe-next-path";

describe("safeNextPath", () => {
  it("keeps paths on this site, with their query and fragment", () => {
    expect(safeNextPath("/admin")).toBe("/admin");
    expect(safeNextPath("/admin/exams/42?tab=candidates#top")).toBe("/admin/exams/42?tab=candidates#top");
  });

  it.each([
    ["an absolute URL", "https://evil.example/admin"],
    ["a protocol-relative URL", "//evil.example/admin"],
    ["a backslash trick", "/\\evil.example"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a relative path", "admin"],
    ["a tab inside", "/ad\tmin"],
    ["a newline inside", "/admin\n//evil.example"],
    ["an empty string", ""],
    ["something not a string", 42],
    ["an overlong path", `/${"a".repeat(2_001)}`],
  ])("refuses %s", (_name, value) => {
    expect(safeNextPath(value)).toBeNull();
  });
});
