import { describe, expect, it } from "vitest";

import {
  correlation,
  cronbachAlpha,
  examStatistics,
  histogram,
  itemStatistics,
  mean,
  median,
  sampleVariance,
  type ScoredPaper,
} from "./item-statistics";

function paper(items: Record<string, number | null>): ScoredPaper {
  const map = new Map(Object.entries(items));
  let total = 0;
  for (const value of map.values()) total += value ?? 0;
  return { total, items: map };
}

describe("descriptive figures", () => {
  it("mean, median, sample variance", () => {
    expect(mean([])).toBeNull();
    expect(mean([1, 2, 3, 4])).toBe(2.5);
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(sampleVariance([7])).toBeNull();
    // 2, 4, 4, 4, 5, 5, 7, 9: population variance 4, sample variance 32/7.
    expect(sampleVariance([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(32 / 7, 12);
  });

  it("correlation is ±1 on lines, null without spread", () => {
    expect(correlation([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(correlation([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 12);
    expect(correlation([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(correlation([1], [1])).toBeNull();
  });
});

describe("itemStatistics", () => {
  // Four candidates, three one-point questions (10,000 units each).
  const U = 10_000;
  const papers = [
    paper({ q1: U, q2: U, q3: U }),
    paper({ q1: U, q2: U, q3: 0 }),
    paper({ q1: U, q2: 0, q3: 0 }),
    paper({ q1: 0, q2: 0, q3: null }), // q3 waits for a grader
  ];

  it("facility is the mean score over the maximum of the decided papers", () => {
    expect(itemStatistics({ id: "q1", maxUnits: U }, papers).facility).toBe(0.75);
    const q3 = itemStatistics({ id: "q3", maxUnits: U }, papers);
    expect(q3.count).toBe(3);
    expect(q3.facility).toBeCloseTo(1 / 3, 12);
    expect(q3.distribution).toEqual([
      { units: 0, count: 2 },
      { units: U, count: 1 },
    ]);
  });

  it("discrimination correlates the item with the rest of the test, not with a total that contains it", () => {
    // q2 against the rest (q1 + q3): scores 1,1,0,0 vs rests 2,1,1,0 → r = 0.7071…
    expect(itemStatistics({ id: "q2", maxUnits: U }, papers).discrimination).toBeCloseTo(Math.SQRT1_2, 10);
    // Everyone right: no spread, no discrimination.
    const easy = [paper({ q1: U, q2: 0 }), paper({ q1: U, q2: U })];
    expect(itemStatistics({ id: "q1", maxUnits: U }, easy).discrimination).toBeNull();
  });
});

describe("examStatistics and Cronbach's alpha", () => {
  it("matches a worked example", () => {
    // Items scored 0–4 by five candidates. Item sample variances 1.3, 1.3, 0.5 (Σ 3.1); totals 12, 7, 9, 4, 8
    // have sample variance 8.5; α = 3/2 · (1 − 3.1/8.5) = 0.952941…
    const rows = [
      [4, 4, 4],
      [2, 2, 3],
      [3, 3, 3],
      [1, 1, 2],
      [3, 2, 3],
    ];
    const items = ["a", "b", "c"].map((id) => ({ id, maxUnits: 4 }));
    const scored = rows.map(([a, b, c]) => paper({ a: a!, b: b!, c: c! }));
    expect(cronbachAlpha(items, scored)).toBeCloseTo(0.9529411764705882, 10);
    const exam = examStatistics(items, scored);
    expect(exam.count).toBe(5);
    expect(exam.mean).toBe(8);
    expect(exam.median).toBe(8);
    expect(exam.standardDeviation).toBeCloseTo(Math.sqrt(8.5), 10);
  });

  it("leaves out papers still waiting for a grader and is null when undefined", () => {
    const items = [
      { id: "a", maxUnits: 1 },
      { id: "b", maxUnits: 1 },
    ];
    expect(cronbachAlpha([items[0]!], [paper({ a: 1 }), paper({ a: 0 })])).toBeNull();
    expect(cronbachAlpha(items, [paper({ a: 1, b: 1 }), paper({ a: 0, b: null })])).toBeNull();
    expect(cronbachAlpha(items, [paper({ a: 1, b: 1 }), paper({ a: 1, b: 1 })])).toBeNull();
  });
});

describe("histogram", () => {
  it("bins totals over 0..max, the last bin closed", () => {
    // Width 5: [0,5) [5,10) [10,15) [15,20]; 19 and both 20s fall in the last bin.
    expect(histogram([0, 5, 10, 19, 20, 20], 20, 4).map((bin) => bin.count)).toEqual([1, 1, 1, 3]);
    expect(histogram([1], 0, 4)).toEqual([]);
  });
});
