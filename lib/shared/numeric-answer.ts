/**
 * Reading a numeric answer as the candidate typed it (issue 11, defect 1). The field is plain text
 * (`inputmode="decimal"`), so nothing is dropped behind the candidate's back: the text is either one number,
 * read exactly as written, or it is refused with a reason the page states next to the field, and nothing is
 * saved until it is a number.
 *
 * Accepted: digits with at most one decimal separator, a point or a comma (`20.5`, `20,5`, `.5`, `20.`), an
 * optional sign, surrounding spaces; full-width forms a Chinese keyboard produces (`２０，５`, `２０。５`, `－３`)
 * are read as their ASCII twins. Refused, each with its own reason:
 * - `1,234` — a comma before exactly three digits could be a thousands separator (1234) or a decimal comma
 *   (1.234); the candidate must say which (`0,125` is not ambiguous: no grouping starts with 0);
 * - `1,2,3`, `1.234,5`, `1 234` — more than one separator, or spaces inside: thousands separators are not read;
 * - `1e5` — scientific notation: an `e` in a numeric answer is far more often a slip than a power of ten;
 * - more than 15 significant digits — a JavaScript number (and JSON) cannot hold them exactly, so what is
 *   stored would differ from what is shown;
 * - `-`, `.`, `+,` — a number still being typed;
 * - anything else with letters or symbols (`abc`, `12kg`).
 */
export type NumericProblem =
  "incomplete" | "not-a-number" | "exponent" | "grouping" | "ambiguous-comma" | "too-many-digits";

export type NumericReading =
  { kind: "empty" } | { kind: "number"; value: number } | { kind: "invalid"; problem: NumericProblem };

/** The most significant digits a double keeps exactly, whatever they are. */
export const MAX_SIGNIFICANT_DIGITS = 15;

/** Minus signs and dashes people type for a minus; NFKC already maps the full-width ones. */
const MINUS_LIKE = /[\u2212\u2012\u2013\uFE63]/g;
/** The ideographic full stop: what the "." key types in Chinese punctuation mode. */
const IDEOGRAPHIC_POINT = /[\u3002\uFF61]/g;

export function readNumericAnswer(text: string): NumericReading {
  const s = text.normalize("NFKC").replace(MINUS_LIKE, "-").replace(IDEOGRAPHIC_POINT, ".").trim();
  if (s === "") return { kind: "empty" };
  if (/^[+-]?[.,]?$/.test(s)) return { kind: "invalid", problem: "incomplete" };
  if (/^[+-]?[\d.,]*\d[eE][+-]?\d*$/.test(s)) return { kind: "invalid", problem: "exponent" };
  if (!/^[+-]?[\d.,\s]+$/.test(s)) return { kind: "invalid", problem: "not-a-number" };
  if (/\s/.test(s) || (s.match(/[.,]/g)?.length ?? 0) > 1) return { kind: "invalid", problem: "grouping" };
  if (/^[+-]?[1-9]\d{0,2},\d{3}$/.test(s)) return { kind: "invalid", problem: "ambiguous-comma" };

  const normalized = s.replace(",", ".");
  const [whole = "", fraction = ""] = normalized.replace(/^[+-]/, "").split(".");
  // Leading and trailing zeros only place the point: 15 significant digits always read back the same.
  const significant = `${whole}${fraction}`.replace(/^0+/, "").replace(/0+$/, "");
  if (significant.length > MAX_SIGNIFICANT_DIGITS) return { kind: "invalid", problem: "too-many-digits" };

  const value = Number(normalized);
  if (!Number.isFinite(value)) return { kind: "invalid", problem: "not-a-number" };
  // -0 and 0 are the same answer, and JSON has no -0.
  return { kind: "number", value: value === 0 ? 0 : value };
}

/**
 * A stored number as the field shows it: plain digits with a decimal point, never an exponent
 * (`1e-7` → `0.0000001`), so the text reads back as the same number.
 */
export function numericAnswerText(value: number): string {
  const text = String(value === 0 ? 0 : value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign = "", head = "", tail = "", exponentText = "0"] = match;
  const exponent = Number(exponentText);
  const digits = `${head}${tail}`;
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  return `${sign}${digits}${"0".repeat(Math.max(0, exponent - tail.length))}`;
}
