import { describe, expect, it } from "vitest";

import { sortByName } from "./name-order";

const names = (locale: "en" | "zh-CN", list: string[]) =>
  sortByName(list, locale, (name) => ({ name, tieBreakers: [] }));

describe("sortByName", () => {
  it("puts Chinese names in pinyin order for a Chinese reader, not in code-point order", () => {
    // Code points: 何 U+4F55, 冯 U+51AF, 刘 U+5218, 张 U+5F20, 王 U+738B; pinyin: féng, hé, liú, wáng, zhāng.
    expect(names("zh-CN", ["何", "冯", "刘", "张", "王"])).toEqual(["冯", "何", "刘", "王", "张"]);
  });

  it("puts English names in alphabetical order, apostrophes, case and accents aside", () => {
    expect(names("en", ["O'Brien", "adams", "Zoë", "Ólafur", "Oakes", "Baker"])).toEqual([
      "adams",
      "Baker",
      "Oakes",
      "O'Brien",
      "Ólafur",
      "Zoë",
    ]);
  });

  it("orders digits by value and breaks ties by the tie-breakers, so equal names keep one order", () => {
    expect(names("en", ["Room 10", "Room 2"])).toEqual(["Room 2", "Room 10"]);
    const people = [
      { name: "王伟", email: "b@example.test" },
      { name: "王伟", email: "a@example.test" },
    ];
    expect(
      sortByName(people, "zh-CN", (person) => ({ name: person.name, tieBreakers: [person.email] })).map((p) => p.email),
    ).toEqual(["a@example.test", "b@example.test"]);
  });
});
