import { describe, expect, it } from "vitest";

import { numericAnswerText, readNumericAnswer } from "./numeric-answer";

const number = (value: number) => ({ kind: "number", value });
const invalid = (problem: string) => ({ kind: "invalid", problem });

describe("reading a numeric answer", () => {
  it("reads a decimal point and a decimal comma alike (20,5 is 20.5, never 205)", () => {
    expect(readNumericAnswer("20.5")).toEqual(number(20.5));
    expect(readNumericAnswer("20,5")).toEqual(number(20.5));
    expect(readNumericAnswer("0,125")).toEqual(number(0.125));
    expect(readNumericAnswer("3,14159")).toEqual(number(3.14159));
    expect(readNumericAnswer(".5")).toEqual(number(0.5));
    expect(readNumericAnswer(",5")).toEqual(number(0.5));
    expect(readNumericAnswer("20.")).toEqual(number(20));
  });

  it("reads signs, whole numbers and surrounding spaces", () => {
    expect(readNumericAnswer("6")).toEqual(number(6));
    expect(readNumericAnswer("  42 ")).toEqual(number(42));
    expect(readNumericAnswer("-3.5")).toEqual(number(-3.5));
    expect(readNumericAnswer("+7")).toEqual(number(7));
    expect(readNumericAnswer("\u22122")).toEqual(number(-2));
    expect(readNumericAnswer("-0")).toEqual(number(0));
    expect(Object.is((readNumericAnswer("-0,0") as { value: number }).value, 0)).toBe(true);
  });

  it("reads what a Chinese keyboard types: full-width digits, comma, point and the ideographic full stop", () => {
    expect(readNumericAnswer("２０，５")).toEqual(number(20.5));
    expect(readNumericAnswer("２０．５")).toEqual(number(20.5));
    expect(readNumericAnswer("20。5")).toEqual(number(20.5));
    expect(readNumericAnswer("－３")).toEqual(number(-3));
  });

  it("is empty when there is nothing but spaces", () => {
    expect(readNumericAnswer("")).toEqual({ kind: "empty" });
    expect(readNumericAnswer("   ")).toEqual({ kind: "empty" });
  });

  it("calls a number still being typed incomplete", () => {
    for (const text of ["-", "+", ".", ",", "-,"]) expect(readNumericAnswer(text)).toEqual(invalid("incomplete"));
  });

  it("refuses letters and symbols rather than dropping them", () => {
    for (const text of ["abc", "12kg", "20 %", "1/2", "0x1F", "Infinity", "NaN", "--5", "5-"]) {
      expect(readNumericAnswer(text), text).toMatchObject({ kind: "invalid" });
    }
    expect(readNumericAnswer("abc")).toEqual(invalid("not-a-number"));
    expect(readNumericAnswer("12kg")).toEqual(invalid("not-a-number"));
  });

  it("refuses scientific notation with its own reason", () => {
    expect(readNumericAnswer("1e5")).toEqual(invalid("exponent"));
    expect(readNumericAnswer("2.5E-3")).toEqual(invalid("exponent"));
    expect(readNumericAnswer("1e")).toEqual(invalid("exponent"));
  });

  it("refuses thousands separators and several decimal separators", () => {
    expect(readNumericAnswer("1,2,3")).toEqual(invalid("grouping"));
    expect(readNumericAnswer("1.234,5")).toEqual(invalid("grouping"));
    expect(readNumericAnswer("1,234.5")).toEqual(invalid("grouping"));
    expect(readNumericAnswer("1 234")).toEqual(invalid("grouping"));
    expect(readNumericAnswer("1.2.3")).toEqual(invalid("grouping"));
  });

  it("asks which was meant when a comma could group thousands or mark decimals", () => {
    expect(readNumericAnswer("1,234")).toEqual(invalid("ambiguous-comma"));
    expect(readNumericAnswer("-12,500")).toEqual(invalid("ambiguous-comma"));
    // Not ambiguous: no grouping starts with 0, and groups have exactly three digits.
    expect(readNumericAnswer("0,250")).toEqual(number(0.25));
    expect(readNumericAnswer("1,2345")).toEqual(number(1.2345));
    expect(readNumericAnswer("1234,567")).toEqual(number(1234.567));
    // A decimal point is never a thousands separator here.
    expect(readNumericAnswer("1.234")).toEqual(number(1.234));
  });

  it("refuses more digits than a number can hold exactly, so what is stored is what is shown", () => {
    expect(readNumericAnswer("123456789012345")).toEqual(number(123456789012345));
    expect(readNumericAnswer("1234567890123456")).toEqual(invalid("too-many-digits"));
    expect(readNumericAnswer("0.1000000000000000055511")).toEqual(invalid("too-many-digits"));
    // Leading zeros and trailing zeros of a fraction are not significant.
    expect(readNumericAnswer("0000.5000000000000000000")).toEqual(number(0.5));
  });
});

describe("showing a stored number", () => {
  it("shows plain digits that read back as the same number, never an exponent", () => {
    for (const value of [20.5, 0.125, -3, 0, 123456789012345, 0.0000001, 1.5e-10, -2.5e-8, 1e21]) {
      const text = numericAnswerText(value);
      expect(text, String(value)).not.toMatch(/e/i);
      expect(readNumericAnswer(text), text).toEqual(number(value));
    }
    expect(numericAnswerText(0.0000001)).toBe("0.0000001");
    expect(numericAnswerText(1e21)).toBe("1000000000000000000000");
    expect(numericAnswerText(-0)).toBe("0");
  });
});
