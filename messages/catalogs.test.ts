import { describe, expect, it } from "vitest";

import { LOCALES } from "@/lib/shared/i18n/locales";

import { messageEntries } from "./entries";
import { MESSAGES } from "./index";

// Every locale has exactly the keys of English, with the same placeholders, so no page ever shows a key
// or loses a value in one language.

function flatten(value: unknown): Map<string, string> {
  return new Map(messageEntries(value));
}

/** The argument names of an ICU message (`{name}`, `{count, plural, …}`), not the words inside plural cases. */
function placeholders(message: string): string[] {
  const names = new Set<string>();
  let depth = 0;
  for (let i = 0; i < message.length; i++) {
    const ch = message[i];
    if (ch === "{") {
      if (depth % 2 === 0) {
        const match = /^\{\s*([A-Za-z_][\w]*)\s*[,}]/.exec(message.slice(i));
        if (match?.[1]) names.add(match[1]);
      }
      depth++;
    } else if (ch === "}") depth--;
  }
  return [...names].sort();
}

describe("message catalogs", () => {
  const english = flatten(MESSAGES.en);

  it("English has messages", () => {
    expect(english.size).toBeGreaterThan(50);
  });

  for (const locale of LOCALES.filter((l) => l !== "en")) {
    it(`${locale} has exactly English's keys`, () => {
      const other = flatten(MESSAGES[locale]);
      expect(
        [...other.keys()].filter((k) => !english.has(k)),
        "extra keys",
      ).toEqual([]);
      expect(
        [...english.keys()].filter((k) => !other.has(k)),
        "missing keys",
      ).toEqual([]);
    });

    // A translation may leave a value out where its grammar needs no number ("正在发送" needs no count),
    // but never names one English does not pass: that would show a raw "{name}" or throw.
    it(`${locale} uses no placeholder English does not pass`, () => {
      const other = flatten(MESSAGES[locale]);
      const differing = [...english].filter(([key, value]) => {
        const translated = other.get(key);
        const passed = new Set(placeholders(value));
        return translated !== undefined && placeholders(translated).some((name) => !passed.has(name));
      });
      expect(differing.map(([key]) => key)).toEqual([]);
    });

    it(`${locale} is not English copied`, () => {
      const other = flatten(MESSAGES[locale]);
      const same = [...english].filter(
        ([key, value]) => other.get(key) === value && /[a-z]{4,}/.test(value) && !key.endsWith(".brand"),
      );
      expect(same.map(([key]) => key)).toEqual([]);
    });
  }
});
