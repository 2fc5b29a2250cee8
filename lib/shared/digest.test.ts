import { createHash } from "node:crypto";

import { describe, expect, it } from "vitest";

import { answersDigest, canonicalJson, requestHash } from "./digest";

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

  it("leaves a cleared answer (null) out, as if the question had never been answered", async () => {
    const kept = { questionId: "q1", value: "ARP" };
    expect(await answersDigest([kept, { questionId: "q2", value: null }])).toBe(await answersDigest([kept]));
    expect(await answersDigest([{ questionId: "q2", value: null }])).toBe(await answersDigest([]));
  });
});

describe("the server's SHA-256 and the browser's", () => {
  it("give the same digest for any text, Chinese, emoji and a lone surrogate included", async () => {
    const webCrypto = async (text: string) => {
      const bytes = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
      return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
    };
    // This process is a server: requestHash takes node:crypto's path, compared here with Web Crypto's.
    expect(typeof process.getBuiltinModule).toBe("function");
    for (const text of ["", "20.5", "光合作用产生氧气。", "naïve 🚀", "broken \ud800 half", "x".repeat(100_000)]) {
      expect(await requestHash(text), JSON.stringify(text.slice(0, 20))).toBe(await webCrypto(canonicalJson(text)));
    }
  });
});
