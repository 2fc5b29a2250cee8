import Papa from "papaparse";
import { describe, expect, it } from "vitest";

import { csvLines, inertCsvCell } from "./csv-cell";

describe("inertCsvCell", () => {
  it.each([
    '=HYPERLINK("http://evil.example","click")',
    "+1+1",
    "-2+3",
    "@SUM(A1:A2)",
    "\t=1+1",
    "\r=1+1",
    " =1+1",
    "   @cmd",
    "\u3000=1+1",
    "＝1+1",
    "＋1",
    "－1",
    "＠SUM(A1)",
    " ＝cmd|' /C calc'!A0",
  ])("keeps %j as text behind an apostrophe, the text itself intact", (value) => {
    expect(inertCsvCell(value)).toBe(`'${value}`);
  });

  it.each(["Ada Lovelace", "王小明", "ada@example.org", "3.5", "a=b", "", " plain", "1-2", "a ＝ b"])(
    "leaves %j as written when no spreadsheet would run it",
    (value) => {
      expect(inertCsvCell(value)).toBe(value);
    },
  );
});

describe("csvLines", () => {
  it("quotes where RFC 4180 needs it, ends each line in CRLF, and reads back to the same (inert) cells", () => {
    const rows = [
      ["name", "note"],
      ["Lee, Ada", 'said "hi"\nthen left'],
      ["＝1+1", " -2"],
    ];
    const text = csvLines(rows);
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text.split("\r\n")[0]).toBe("name,note");
    const parsed = Papa.parse<string[]>(text.trimEnd(), { newline: "\r\n" });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toEqual([
      ["name", "note"],
      ["Lee, Ada", 'said "hi"\nthen left'],
      ["'＝1+1", "' -2"],
    ]);
  });

  it("is empty for no rows", () => {
    expect(csvLines([])).toBe("");
  });
});
