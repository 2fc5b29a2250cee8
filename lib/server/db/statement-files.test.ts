import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { bindStatement, compileStatement, expandIncludes, loadStatement, type StatementName } from "./statement-files";

const NAMES: StatementName[] = [
  "apply-answer-delta",
  "lock-attempt",
  "freeze-attempt",
  "read-paper-for-submit",
  "submit-attempt",
  "enqueue-result-jobs",
];

describe("compileStatement", () => {
  it("numbers :name parameters in order of first use, reusing a number, and leaves ::casts alone", () => {
    const statement = compileStatement(
      "lock-attempt",
      "-- header :ignored\nSELECT a.id::text FROM attempts a\nWHERE a.id = :attemptId::uuid AND (:enrollmentId::uuid IS NULL OR a.enrollment_id = :enrollmentId::uuid)",
    );
    expect(statement.text).toBe(
      "SELECT a.id::text FROM attempts a\nWHERE a.id = $1::uuid AND ($2::uuid IS NULL OR a.enrollment_id = $2::uuid)",
    );
    expect(statement.params).toEqual(["attemptId", "enrollmentId"]);
  });

  it("binds values by name, and refuses a missing one rather than sending null", () => {
    const statement = compileStatement("lock-attempt", "SELECT :b, :a, :b");
    expect(bindStatement(statement, { a: 1, b: null })).toEqual([null, 1]);
    expect(() => bindStatement(statement, { a: 1 })).toThrow(/no value for :b/);
  });
});

describe("expandIncludes", () => {
  it("replaces a whole `-- @include name.sql` line with the fragment, and nothing else", () => {
    const read = (name: string) => `-- fragment ${name}\nx AS (SELECT 1),\n`;
    expect(expandIncludes("WITH\n-- @include part.sql (why)\ny AS (SELECT 2)\nSELECT 1", read)).toBe(
      "WITH\n-- fragment part\nx AS (SELECT 1),\ny AS (SELECT 2)\nSELECT 1",
    );
    expect(expandIncludes("SELECT 1 -- @include part.sql", read)).toBe("SELECT 1 -- @include part.sql");
  });

  it("expands a fragment's own includes, and refuses a fragment that includes itself", () => {
    const parts: Record<string, string> = {
      outer: "-- outer\na AS (SELECT 1),\n-- @include inner.sql\n",
      inner: "b AS (SELECT 2),\n",
      loop: "-- @include loop.sql\n",
    };
    const read = (name: string) => parts[name] ?? "";
    expect(expandIncludes("WITH\n-- @include outer.sql\nSELECT 3", read)).toBe(
      "WITH\n-- outer\na AS (SELECT 1),\nb AS (SELECT 2),\nSELECT 3",
    );
    expect(() => expandIncludes("-- @include loop.sql", read)).toThrow(/loop.sql includes itself/);
  });

  it("refuses a fragment that does not exist", () => {
    expect(() => expandIncludes("-- @include no-such-part.sql")).toThrow(/no statement fragment no-such-part/);
  });
});

describe("the statement files", () => {
  it.each(NAMES)(
    "%s.sql loads, and its header (or an included fragment's) documents every parameter it uses",
    (name) => {
      const statement = loadStatement(name);
      expect(statement.params.length).toBeGreaterThan(0);
      expect(statement.text).not.toMatch(/(?<![:\w]):[A-Za-z_]/);
      const header = expandIncludes(readFileSync(new URL(`./statements/${name}.sql`, import.meta.url), "utf8"))
        .split("\n")
        .filter((line) => line.trim().startsWith("--"))
        .join("\n");
      for (const param of statement.params) expect(header).toContain(`:${param}`);
    },
  );
});
