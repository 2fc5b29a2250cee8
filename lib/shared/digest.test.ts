import { createHash } from "node:crypto";

import { describe, expect, it } from "vitest";

import { answersDigest, canonicalJson } from "./digest";

describe("canonicalJson", () => {
  it("sorts object keys at every depth and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1], c: "x" } })).toBe('{"a":{"c":"x","d":[3,1]},"b":1}');
  });

  it("omits undefined members and refuses non-finite numbers", () => {
    expect(canonicalJson({ a: undefined, b: null })).toBe('{"b":null}');
    expect(() => canonicalJson({ a: Number.NaN })).toThrow();
  });

  it("escapes strings the JSON way", () => {
    expect(canonicalJson({ 'q"1': "line\nbreak €" })).toBe('{"q\\"1":"line\\nbreak €"}');
  });
});

describe("answersDigest", () => {
  it("is SHA-256 hex of the canonical answer map, independent of input order", async () => {
    const answers = [
      { questionId: "q2", value: ["a", "c"] },
      { questionId: "q1", value: "b" },
      { questionId: "q3", value: 42.5 },
    ];
    const expected = createHash("sha256").update('{"q1":"b","q2":["a","c"],"q3":42.5}').digest("hex");
    expect(await answersDigest(answers)).toBe(expected);
    expect(await answersDigest([...answers].reverse())).toBe(expected);
  });

  it("of an empty paper is the digest of {}", async () => {
    expect(await answersDigest([])).toBe(createHash("sha256").update("{}").digest("hex"));
  });
});
