/**
 * The statistics a results page shows per question and per exam (issue 15, "Statistics"), from the scores of the
 * scored papers. Descriptive figures, computed in floating point from exact scores (units of 1/10,000 point,
 * lib/shared/scoring/score-units.ts); the scores themselves are never rounded here.
 *
 * Conventions (stated on the page): variances and standard deviations are sample ones (n − 1), as test-analysis
 * tools report them; a figure that needs more than one paper, or a spread that is not there (everyone scored the
 * same), is null rather than a made-up 0.
 */

/** One scored paper: per question id, the units earned (null: not decided yet, left out of that item's figures). */
export type ScoredPaper = { total: number; items: ReadonlyMap<string, number | null> };

export type ItemInput = { id: string; maxUnits: number };

export type ItemStatistics = {
  id: string;
  /** Papers with a decided score for this question. */
  count: number;
  /** Mean score ÷ maximum, 0..1; null without papers or for a zero-point question. */
  facility: number | null;
  /** Correlation of the item score with the rest of the test (total − item); null when undefined. */
  discrimination: number | null;
  /** How many papers earned each distinct score (units), ascending. */
  distribution: { units: number; count: number }[];
};

export type ExamStatistics = {
  count: number;
  mean: number | null;
  median: number | null;
  standardDeviation: number | null;
  /** Cronbach's alpha over the questions every counted paper has a decided score for; null when undefined. */
  cronbachAlpha: number | null;
};

export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Sample variance (n − 1); null for fewer than two values. */
export function sampleVariance(values: readonly number[]): number | null {
  const average = mean(values);
  if (average === null || values.length < 2) return null;
  let sum = 0;
  for (const value of values) sum += (value - average) ** 2;
  return sum / (values.length - 1);
}

/** Pearson's correlation; null for fewer than two pairs or when either side does not vary. */
export function correlation(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length !== ys.length) throw new RangeError("correlation needs pairs");
  const mx = mean(xs);
  const my = mean(ys);
  if (mx === null || my === null || xs.length < 2) return null;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let index = 0; index < xs.length; index += 1) {
    const dx = xs[index]! - mx;
    const dy = ys[index]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  return sxy / Math.sqrt(sxx * syy);
}

export function itemStatistics(item: ItemInput, papers: readonly ScoredPaper[]): ItemStatistics {
  const scores: number[] = [];
  const rests: number[] = [];
  const counts = new Map<number, number>();
  for (const paper of papers) {
    const score = paper.items.get(item.id);
    if (score === null || score === undefined) continue;
    scores.push(score);
    rests.push(paper.total - score);
    counts.set(score, (counts.get(score) ?? 0) + 1);
  }
  const average = mean(scores);
  return {
    id: item.id,
    count: scores.length,
    facility: average === null || item.maxUnits === 0 ? null : average / item.maxUnits,
    discrimination: correlation(scores, rests),
    distribution: [...counts].sort(([a], [b]) => a - b).map(([units, count]) => ({ units, count })),
  };
}

export function examStatistics(items: readonly ItemInput[], papers: readonly ScoredPaper[]): ExamStatistics {
  const totals = papers.map((paper) => paper.total);
  const variance = sampleVariance(totals);
  return {
    count: papers.length,
    mean: mean(totals),
    median: median(totals),
    standardDeviation: variance === null ? null : Math.sqrt(variance),
    cronbachAlpha: cronbachAlpha(items, papers),
  };
}

/**
 * α = k/(k − 1) · (1 − Σ var(item) / var(sum of items)), over the papers whose every item is decided (a paper
 * still waiting for a grader would bias it) and the k ≥ 2 items. Null when undefined (k < 2, fewer than two such
 * papers, or totals that do not vary).
 */
export function cronbachAlpha(items: readonly ItemInput[], papers: readonly ScoredPaper[]): number | null {
  const k = items.length;
  if (k < 2) return null;
  const complete = papers.filter((paper) =>
    items.every((item) => {
      const score = paper.items.get(item.id);
      return score !== null && score !== undefined;
    }),
  );
  if (complete.length < 2) return null;
  let itemVariances = 0;
  for (const item of items) itemVariances += sampleVariance(complete.map((paper) => paper.items.get(item.id)!))!;
  const sums = complete.map((paper) => items.reduce((sum, item) => sum + paper.items.get(item.id)!, 0));
  const totalVariance = sampleVariance(sums)!;
  if (totalVariance === 0) return null;
  return (k / (k - 1)) * (1 - itemVariances / totalVariance);
}

/** `bins` equal-width bins over 0..max (the last one closed), counting the totals in each. */
export function histogram(
  totals: readonly number[],
  maxUnits: number,
  bins: number,
): { from: number; to: number; count: number }[] {
  if (bins < 1 || maxUnits <= 0) return [];
  const width = maxUnits / bins;
  const result = Array.from({ length: bins }, (_, index) => ({
    from: index * width,
    to: index === bins - 1 ? maxUnits : (index + 1) * width,
    count: 0,
  }));
  for (const total of totals) {
    const index = Math.min(bins - 1, Math.max(0, Math.floor(total / width)));
    result[index]!.count += 1;
  }
  return result;
}
