import { describe, expect, it } from "vitest";

import * as r from "./reader";

describe("readers", () => {
  const Item = r.object({
    id: r.string,
    n: r.count,
    when: r.optional(r.instant),
    tags: r.nullable(r.array(r.oneOf(["a", "b"]))),
  });

  it("keeps only the keys it names, and leaves an absent optional key absent", () => {
    const read = Item.parse({ id: "x", n: 2, tags: null, extra: "dropped" });
    expect(read).toEqual({ id: "x", n: 2, tags: null });
    expect("when" in read).toBe(false);
  });

  it("says where a body first fails", () => {
    expect(Item.safeParse({ id: "x", n: -1, tags: null })).toEqual({ success: false, error: "n: expected a count" });
    expect(Item.safeParse({ id: "x", n: 1, tags: ["a", "c"] })).toEqual({
      success: false,
      error: "tags.1: expected a | b",
    });
    expect(Item.safeParse({ id: "x", n: 1.5, tags: null }).success).toBe(false);
    expect(Item.safeParse({ id: "x", n: 1, when: "soon", tags: null }).success).toBe(false);
    expect(Item.safeParse([]).success).toBe(false);
    expect(() => Item.parse(null)).toThrow("(body): expected an object");
  });

  it("takes the first shape that fits", () => {
    const value = r.anyOf<string | number | string[]>(r.string, r.number, r.array(r.string));
    expect(value.parse(["a"])).toEqual(["a"]);
    expect(value.parse(20.5)).toBe(20.5);
    expect(value.safeParse(Number.NaN).success).toBe(false);
    expect(value.safeParse([1]).success).toBe(false);
  });
});
