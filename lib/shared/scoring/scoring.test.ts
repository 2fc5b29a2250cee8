import { describe, expect, it } from "vitest";

import { decimalOf, isWithinTolerance } from "./exact-decimal";
import { scoreAnswer, type ScorableQuestion } from "./score-answer";
import { scorePaper } from "./score-paper";
import { formatUnits, fractionOfUnits, pointsToUnits, unitsToPoints } from "./score-units";
import { matchesAcceptedAnswer, normaliseShortText } from "./short-text";

const base = { tolerance: null, scoring: null, exactMatch: false, ungraded: false } as const;
const single: ScorableQuestion = { ...base, type: "single_choice", points: 2, answerKey: "b" };
const multiple = (scoring: "partial" | "all_or_nothing" | null, points = 3): ScorableQuestion => ({
  ...base,
  type: "multiple_choice",
  points,
  answerKey: ["a", "c", "d"],
  scoring,
});
const numeric = (answerKey: number, tolerance: number | null, points = 1): ScorableQuestion => ({
  ...base,
  type: "numeric",
  points,
  answerKey,
  tolerance,
});
const shortText = (answerKey: string | string[], exactMatch = false): ScorableQuestion => ({
  ...base,
  type: "short_text",
  points: 1,
  answerKey,
  exactMatch,
});
const essay: ScorableQuestion = { ...base, type: "essay", points: 10, answerKey: null };

describe("score units", () => {
  it("holds points exactly to four decimals and formats them back", () => {
    expect(pointsToUnits(1.5)).toBe(15_000);
    expect(pointsToUnits(0.1)).toBe(1_000);
    expect(pointsToUnits(0.3333)).toBe(3_333);
    expect(formatUnits(15_000)).toBe("1.5");
    expect(formatUnits(3_333)).toBe("0.3333");
    expect(formatUnits(0)).toBe("0");
    expect(formatUnits(100_000_000)).toBe("10000");
    expect(unitsToPoints(pointsToUnits(0.1) + pointsToUnits(0.2))).toBe(0.3);
  });

  it("rounds a fraction of points once, half up", () => {
    expect(fractionOfUnits(10_000, 1, 3)).toBe(3_333);
    expect(fractionOfUnits(10_000, 2, 3)).toBe(6_667);
    expect(fractionOfUnits(5, 1, 2)).toBe(3); // 2.5 → 3
    expect(fractionOfUnits(30_000, 3, 3)).toBe(30_000);
  });

  it("sums 0.1 + 0.2 points ten thousand times without drift", () => {
    let total = 0;
    for (let index = 0; index < 10_000; index += 1) total += pointsToUnits(0.1) + pointsToUnits(0.2);
    expect(formatUnits(total)).toBe("3000");
  });
});

describe("exact decimals", () => {
  it("reads a number as the decimal it was written as, exponent forms included", () => {
    expect(decimalOf(1.1)).toEqual({ digits: 11n, scale: 1 });
    expect(decimalOf(-0.05)).toEqual({ digits: -5n, scale: 2 });
    expect(decimalOf(1e-7)).toEqual({ digits: 1n, scale: 7 });
    expect(decimalOf(1.5e21)).toEqual({ digits: 1_500_000_000_000_000_000_000n, scale: 0 });
    expect(() => decimalOf(Number.NaN)).toThrow(RangeError);
  });

  it("compares tolerance edges inclusively where binary floating point would not", () => {
    // Math.abs(1.0 - 1.1) is 0.10000000000000009 > 0.1: a float comparison refuses the edge.
    expect(Math.abs(1.0 - 1.1) <= 0.1).toBe(false);
    expect(isWithinTolerance(1.0, 1.1, 0.1)).toBe(true);
    expect(isWithinTolerance(1.2, 1.1, 0.1)).toBe(true);
    expect(isWithinTolerance(1.2000001, 1.1, 0.1)).toBe(false);
    expect(isWithinTolerance(41.5, 42, 0.5)).toBe(true);
    expect(isWithinTolerance(42.5, 42, 0.5)).toBe(true);
    expect(isWithinTolerance(41.49, 42, 0.5)).toBe(false);
    expect(isWithinTolerance(-3, -3, 0)).toBe(true);
    expect(isWithinTolerance(0.3, 0.1 + 0.2, 0)).toBe(false); // 0.30000000000000004 is what was stored
  });
});

describe("short text", () => {
  it("trims, folds case, white space and full-width forms unless exact", () => {
    expect(normaliseShortText("  Photo  Synthesis ", false)).toBe("photo synthesis");
    expect(normaliseShortText("ＡＴＰ１", false)).toBe("atp1");
    expect(matchesAcceptedAnswer("  mitochondria\n", ["Mitochondria"], false)).toBe(true);
    expect(matchesAcceptedAnswer("线粒体", ["mitochondria", "线粒体"], false)).toBe(true);
    expect(matchesAcceptedAnswer("mitochondrion", ["mitochondria"], false)).toBe(false);
  });

  it("keeps case and inner spacing when exact, but not a trailing space", () => {
    expect(matchesAcceptedAnswer("NaCl ", ["NaCl"], true)).toBe(true);
    expect(matchesAcceptedAnswer("nacl", ["NaCl"], true)).toBe(false);
    expect(matchesAcceptedAnswer("Na Cl", ["Na  Cl"], true)).toBe(false);
    // The same letter precomposed (é) and decomposed (e + U+0301) is the same letter.
    expect(matchesAcceptedAnswer("caf\u00e9", ["cafe\u0301"], true)).toBe(true);
  });

  it("never matches an empty answer, even against an empty-looking key", () => {
    expect(matchesAcceptedAnswer("   ", [" "], false)).toBe(false);
  });
});

describe("scoreAnswer", () => {
  it("single choice: the key earns the points, anything else 0, no choice is blank", () => {
    expect(scoreAnswer(single, "b")).toEqual({ kind: "scored", units: 20_000, maxUnits: 20_000, reason: "correct" });
    expect(scoreAnswer(single, "a")).toEqual({ kind: "scored", units: 0, maxUnits: 20_000, reason: "incorrect" });
    expect(scoreAnswer(single, undefined)).toEqual({ kind: "scored", units: 0, maxUnits: 20_000, reason: "blank" });
    // A cleared answer (null) is blank too, never "incorrect".
    expect(scoreAnswer(single, null)).toEqual({ kind: "scored", units: 0, maxUnits: 20_000, reason: "blank" });
  });

  it("multiple choice, partial credit (the default): right earns points/k, wrong costs the same, floored at 0", () => {
    const partial = multiple(null);
    const units = (value: string[]) => {
      const score = scoreAnswer(partial, value);
      return score.kind === "scored" ? score.units : Number.NaN;
    };
    expect(units(["a", "c", "d"])).toBe(30_000);
    expect(units(["a", "c"])).toBe(20_000);
    expect(units(["a"])).toBe(10_000);
    expect(units(["a", "b"])).toBe(0); // 1 right − 1 wrong
    expect(units(["a", "c", "b"])).toBe(10_000);
    expect(units(["b", "e"])).toBe(0); // floored, never negative
    expect(units(["a", "b", "c", "d", "e"])).toBe(10_000); // choosing everything is not full marks
    expect(scoreAnswer(partial, [])).toMatchObject({ units: 0, reason: "blank" });
    // Thirds of a point are rounded once, half up.
    const onePoint = multiple("partial", 1);
    expect(scoreAnswer(onePoint, ["a"])).toMatchObject({ units: 3_333, reason: "partial" });
    expect(scoreAnswer(onePoint, ["a", "c"])).toMatchObject({ units: 6_667, reason: "partial" });
    // Choosing a right option twice (a malformed value) counts once.
    expect(units(["a", "a", "a"])).toBe(10_000);
  });

  it("multiple choice, all or nothing: exactly the right set", () => {
    const strict = multiple("all_or_nothing");
    expect(scoreAnswer(strict, ["d", "a", "c"])).toMatchObject({ units: 30_000, reason: "correct" });
    expect(scoreAnswer(strict, ["a", "c"])).toMatchObject({ units: 0, reason: "incorrect" });
    expect(scoreAnswer(strict, ["a", "c", "d", "b"])).toMatchObject({ units: 0, reason: "incorrect" });
  });

  it("numeric: within the absolute tolerance, inclusive; no tolerance means exact", () => {
    const q = numeric(42, 0.5);
    expect(scoreAnswer(q, 41.5)).toMatchObject({ units: 10_000, reason: "correct" });
    expect(scoreAnswer(q, 42.5)).toMatchObject({ units: 10_000 });
    expect(scoreAnswer(q, 42.5000001)).toMatchObject({ units: 0, reason: "incorrect" });
    expect(scoreAnswer(numeric(1.1, 0.1), 1)).toMatchObject({ units: 10_000 });
    expect(scoreAnswer(numeric(20.5, null), 20.5)).toMatchObject({ units: 10_000 });
    expect(scoreAnswer(numeric(20.5, null), 20.50001)).toMatchObject({ units: 0 });
    // A value stored as text by an older client is read as the page reads it.
    expect(scoreAnswer(numeric(20.5, null), "20,5")).toMatchObject({ units: 10_000 });
    expect(scoreAnswer(numeric(20.5, null), "abc")).toMatchObject({ units: 0, reason: "incorrect" });
    expect(scoreAnswer(numeric(20.5, null), "  ")).toMatchObject({ units: 0, reason: "blank" });
    expect(scoreAnswer(numeric(20.5, null), null)).toMatchObject({ units: 0, reason: "blank" });
  });

  it("short text: a match earns the points; no match waits for a person; blank is 0", () => {
    expect(scoreAnswer(shortText(["Paris", "巴黎"]), " paris ")).toMatchObject({ kind: "scored", units: 10_000 });
    expect(scoreAnswer(shortText("Paris"), "巴黎")).toEqual({
      kind: "needs_grader",
      maxUnits: 10_000,
      reason: "no_match",
    });
    expect(scoreAnswer(shortText("Paris", true), "paris")).toMatchObject({ kind: "needs_grader", reason: "no_match" });
    expect(scoreAnswer(shortText("Paris"), "")).toMatchObject({ kind: "scored", units: 0, reason: "blank" });
    expect(scoreAnswer(shortText([]), "anything")).toMatchObject({ kind: "needs_grader", reason: "no_key" });
  });

  it("essay: always a person, unless blank", () => {
    expect(scoreAnswer(essay, "My essay")).toEqual({ kind: "needs_grader", maxUnits: 100_000, reason: "essay" });
    expect(scoreAnswer(essay, " \n ")).toMatchObject({ kind: "scored", units: 0, reason: "blank" });
  });

  it("ungraded survey items count for nothing", () => {
    expect(scoreAnswer({ ...single, answerKey: null, ungraded: true }, "a")).toEqual({ kind: "ungraded" });
  });
});

describe("scorePaper", () => {
  it("sums decided scores, counts the maximum of graded questions and what waits for a person", () => {
    const questions = [
      { id: "q1", ...single },
      { id: "q2", ...multiple(null, 1) },
      { id: "q3", ...numeric(42, 0.5) },
      { id: "q4", ...essay },
      { id: "q5", ...single, answerKey: null, ungraded: true },
      { id: "q6", ...shortText("Paris") },
    ];
    const answers = new Map<string, string | number | string[]>([
      ["q1", "b"],
      ["q2", ["a"]],
      ["q3", 41.5],
      ["q4", "text"],
      ["q5", "a"],
    ]);
    const paper = scorePaper(questions, answers);
    expect(paper.units).toBe(20_000 + 3_333 + 10_000 + 0);
    expect(paper.maxUnits).toBe(20_000 + 10_000 + 10_000 + 100_000 + 10_000);
    expect(paper.pending).toBe(1); // the essay; q6 is blank → 0
    expect(paper.perQuestion.get("q6")).toMatchObject({ reason: "blank" });
    expect(formatUnits(paper.units)).toBe("3.3333");
  });
});
