import { describe, expect, it } from "vitest";

import { samePlainData } from "./stable-attempt";

describe("samePlainData", () => {
  it("compares plain data by value, arrays in order, objects by their own keys", () => {
    expect(samePlainData({ a: [1, { b: "x" }], c: null }, { c: null, a: [1, { b: "x" }] })).toBe(true);
    expect(samePlainData([1, 2], [2, 1])).toBe(false);
    expect(samePlainData({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(samePlainData({ a: undefined }, { b: undefined })).toBe(false);
    expect(samePlainData([], {})).toBe(false);
    expect(samePlainData(null, {})).toBe(false);
    expect(samePlainData("1", 1)).toBe(false);
    expect(samePlainData({ options: [{ id: "a", label: "A" }] }, { options: [{ id: "a", label: "B" }] })).toBe(false);
  });
});
