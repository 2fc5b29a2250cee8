import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { messageEntries } from "./entries";
import { MESSAGES } from "./index";

// docs/i18n.md, "Glossary": one name per concept. The table's last column lists the second names a catalogue must
// not use; this reads the table itself, so the documentation and the check cannot drift apart.

type Term = { concept: string; english: string; chinese: string; avoid: string[] };

function glossary(): Term[] {
  const doc = readFileSync(new URL("../docs/i18n.md", import.meta.url), "utf8");
  const section = doc.split(/^## Glossary$/m)[1]?.split(/^## /m)[0] ?? "";
  return section
    .split("\n")
    .filter((line) => line.startsWith("|") && !/^\|\s*-/.test(line))
    .slice(1)
    .map((line) => {
      const [concept = "", english = "", chinese = "", avoid = ""] = line
        .split("|")
        .slice(1, -1)
        .map((cell) => cell.trim());
      return {
        concept,
        english,
        chinese,
        avoid: avoid
          .split(",")
          .map((name) => name.trim())
          .filter(Boolean),
      };
    });
}

describe("the glossary (docs/i18n.md)", () => {
  const terms = glossary();

  it("is there, with a Chinese name and second names to refuse for each concept", () => {
    expect(terms.length).toBeGreaterThanOrEqual(10);
    for (const term of terms) {
      expect(term.chinese, term.concept).not.toBe("");
      expect(term.avoid.length, term.concept).toBeGreaterThan(0);
      // The right name is never one of the refused ones.
      expect(
        term.avoid.some((name) => term.chinese.includes(name)),
        term.concept,
      ).toBe(false);
    }
  });

  it("the Chinese catalogue uses one name per concept", () => {
    const found = messageEntries(MESSAGES["zh-CN"]).flatMap(([key, text]) =>
      terms.flatMap((term) =>
        term.avoid.filter((name) => text.includes(name)).map((name) => `${key}: "${name}" for ${term.chinese}`),
      ),
    );
    expect(found).toEqual([]);
  });

  it("finds a second name where one is used", () => {
    const late = terms.find((term) => term.english === "late answer")!;
    expect(late.avoid.filter((name) => "已作为迟交作答保存".includes(name))).toEqual(["迟交作答"]);
  });
});
