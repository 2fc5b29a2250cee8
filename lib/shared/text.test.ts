import { describe, expect, it } from "vitest";

import { isStorableText } from "./text";

describe("isStorableText", () => {
  it("accepts any well-formed text, astral characters included", () => {
    for (const text of ["", "plain", "ünïcödé", "emoji 😀 and 𝓼𝓬𝓻𝓲𝓹𝓽", "\u202e\ufeff\u0301", "tab\tand\nnewline"])
      expect(isStorableText(text)).toBe(true);
  });

  it("refuses NUL and unpaired surrogates, wherever they are", () => {
    for (const text of ["\u0000", "a\u0000b", "\ud800", "x\udfff", "\ud83d", "ok \ude00 then", "\udc00\ud800"])
      expect(isStorableText(text)).toBe(false);
  });
});
