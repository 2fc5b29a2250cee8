/**
 * Exact decimal arithmetic on the numbers a numeric answer, key and tolerance are stored as. A JavaScript
 * number is binary: `Math.abs(1.0 - 1.1) <= 0.1` is false (the difference is 0.10000000000000009), so a
 * candidate who typed exactly the edge of the tolerance would lose the mark. Every number here is first read as
 * the decimal it was written as — its shortest round-trip text, which is what the candidate and the author typed
 * (lib/shared/numeric-answer.ts refuses more than 15 significant digits) — and compared as scaled integers.
 */

/** `digits × 10^-scale`, exactly. */
type Decimal = { digits: bigint; scale: number };

/** The decimal a finite number was written as (`String(n)`, including its exponent form: 1e-7, 1.5e+21). */
export function decimalOf(value: number): Decimal {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  const [mantissa = "0", exponentText] = String(value).toLowerCase().split("e");
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  const negative = mantissa.startsWith("-");
  const [whole = "0", fraction = ""] = mantissa.replace(/^[-+]/, "").split(".");
  const digits = BigInt(`${whole}${fraction}`) * (negative ? -1n : 1n);
  const scale = fraction.length - exponent;
  return scale >= 0 ? { digits, scale } : { digits: digits * 10n ** BigInt(-scale), scale: 0 };
}

function atScale(decimal: Decimal, scale: number): bigint {
  return decimal.digits * 10n ** BigInt(scale - decimal.scale);
}

/** |answer − key| ≤ tolerance, computed exactly in decimal (inclusive: key 42, tolerance 0.5 accepts 41.5). */
export function isWithinTolerance(answer: number, key: number, tolerance: number): boolean {
  const a = decimalOf(answer);
  const k = decimalOf(key);
  const t = decimalOf(tolerance);
  const scale = Math.max(a.scale, k.scale, t.scale);
  const difference = atScale(a, scale) - atScale(k, scale);
  const distance = difference < 0n ? -difference : difference;
  return distance <= atScale(t, scale);
}
