import { describe, expect, it } from "vitest";

import { extraMinutesOf, parseCandidatesCsv } from "./enrollment-csv";
import { LIMITS } from "./limits";

const codes = (text: string) =>
  parseCandidatesCsv(text).lines.map((line) => [line.line, line.errors.map((error) => error.code)]);

describe("parseCandidatesCsv", () => {
  it("numbers lines as an editor does: blank lines count, a quoted newline keeps its record on its first line", () => {
    const parsed = parseCandidatesCsv('name,email\n\n"Ada\nLovelace",ada@example.org\r\n\r\nAlan,alan@example.org\n');
    expect(parsed.lines.map((line) => [line.line, line.name])).toEqual([
      [3, "Ada\nLovelace"],
      [6, "Alan"],
    ]);
  });

  it("takes the delimiter from the header, so commas inside semicolon data are data", () => {
    const parsed = parseCandidatesCsv("name;email;extra_minutes\nDoe, Jane;jane@example.org;5\n");
    expect(parsed.delimiter).toBe(";");
    expect(parsed.lines[0]).toMatchObject({ name: "Doe, Jane", email: "jane@example.org", extraSeconds: 300 });
  });

  it("reads columns in any order and case, trims fields, lower-cases emails, extra_minutes optional", () => {
    const parsed = parseCandidatesCsv(" Email , NAME \n  ADA@Example.ORG ,  Ada  \n");
    expect(parsed.fileErrors).toEqual([]);
    expect(parsed.lines[0]).toMatchObject({ name: "Ada", email: "ada@example.org", extraSeconds: 0, errors: [] });
  });

  it("flags each bad value on its own line and every later duplicate with the first line's number", () => {
    expect(
      codes(
        [
          "name,email,extra_minutes",
          "A,a@example.org,0",
          "B,b@example.org,ten",
          ",c@example.org,",
          "D,A@EXAMPLE.ORG,0",
          "E,a@example.org,0",
          'F,"f@example.org,0',
        ].join("\n"),
      ),
    ).toEqual([
      [2, []],
      [3, ["extra_minutes_invalid"]],
      [4, ["name_missing"]],
      [5, ["duplicate_in_file"]],
      [6, ["duplicate_in_file"]],
      [7, ["quotes", "fields", "email_invalid"]],
    ]);
  });

  it("refuses a missing or wrong header and an empty file as file errors", () => {
    expect(parseCandidatesCsv("Ada,ada@example.org,0").fileErrors[0]?.code).toBe("header_missing");
    expect(parseCandidatesCsv("name,email,name").fileErrors[0]?.code).toBe("header_invalid");
    expect(parseCandidatesCsv("name,extra_minutes\nAda,0").fileErrors[0]?.code).toBe("header_invalid");
    expect(parseCandidatesCsv("").fileErrors[0]?.code).toBe("empty");
    expect(parseCandidatesCsv("\n\n  \n").fileErrors[0]?.code).toBe("empty");
  });

  it("reads the join-links export as it is: its join_url column is read past, never used", () => {
    const exported =
      "\uFEFFname,email,extra_minutes,join_url\r\nAda Lovelace,ada@example.org,15,https://exams.example.org/join/abc\r\nLin Wei,lin@example.org,0,\r\n";
    const parsed = parseCandidatesCsv(exported);
    expect(parsed.fileErrors).toEqual([]);
    expect(parsed.lines).toEqual([
      expect.objectContaining({ name: "Ada Lovelace", email: "ada@example.org", extraSeconds: 900, errors: [] }),
      expect.objectContaining({ name: "Lin Wei", email: "lin@example.org", extraSeconds: 0, errors: [] }),
    ]);
    expect(JSON.stringify(parsed.lines)).not.toContain("join");
    // Another unknown column is still a header error: a typo must not silently drop extra time.
    expect(parseCandidatesCsv("name,email,extra_minuts\nAda,ada@example.org,5").fileErrors[0]?.code).toBe(
      "header_invalid",
    );
  });

  it("stops at the line limit with a file error", () => {
    const text = ["name,email", ...Array.from({ length: 4 }, (_, i) => `N${i},n${i}@example.org`)].join("\n");
    const parsed = parseCandidatesCsv(text, 3);
    expect(parsed.lines).toHaveLength(3);
    expect(parsed.fileErrors).toEqual([expect.objectContaining({ code: "too_many_lines", params: { max: 3 } })]);
  });
});

describe("extraMinutesOf", () => {
  it("gives whole minutes, rounding a part minute up so a round trip never shortens extra time", () => {
    expect(extraMinutesOf(0)).toBe(0);
    expect(extraMinutesOf(600)).toBe(10);
    expect(extraMinutesOf(90)).toBe(2);
    expect(extraMinutesOf(1)).toBe(1);
    expect(extraMinutesOf(LIMITS.maxExtraSeconds)).toBe(LIMITS.maxExtraSeconds / 60);
  });

  it("writes a value the import reads back as the same whole minutes", () => {
    const seconds = 3 * 60 + 20;
    const parsed = parseCandidatesCsv(`name,email,extra_minutes\nAda,ada@example.org,${extraMinutesOf(seconds)}\n`);
    expect(parsed.lines[0]?.errors).toEqual([]);
    expect(parsed.lines[0]?.extraSeconds).toBe(4 * 60);
  });
});
