/**
 * Scores are exact: every score is a whole number of units of 1/10,000 of a point, so a total is an integer sum
 * and never drifts (0.1 + 0.2 points is 3,000 units, not 0.30000000000000004). Question points are authored with
 * at most four decimals; a per-question score that is a fraction of them (partial credit: 2 of 3 right choices)
 * is rounded once, half up, to a unit, and the rounding never compounds.
 */
export const UNITS_PER_POINT = 10_000;

/** A question's points (as stored, a number with at most four decimals) in units. */
export function pointsToUnits(points: number): number {
  if (!Number.isFinite(points) || points < 0) throw new RangeError(`points must be a finite number ≥ 0: ${points}`);
  return Math.round(points * UNITS_PER_POINT);
}

/** `units × numerator ÷ denominator`, rounded half up to a unit; all non-negative integers, denominator > 0. */
export function fractionOfUnits(units: number, numerator: number, denominator: number): number {
  const product = BigInt(units) * BigInt(numerator);
  const d = BigInt(denominator);
  return Number((2n * product + d) / (2n * d));
}

/** Units as the shortest exact decimal text of points: 15000 → "1.5", 3333 → "0.3333", 0 → "0". */
export function formatUnits(units: number): string {
  const negative = units < 0;
  const magnitude = Math.abs(units);
  const whole = Math.floor(magnitude / UNITS_PER_POINT);
  const fraction = String(magnitude % UNITS_PER_POINT)
    .padStart(4, "0")
    .replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/** Units as a number of points, for JSON and charts (exact to the four decimals a unit has). */
export function unitsToPoints(units: number): number {
  return Number(formatUnits(units));
}
