import { describe, expect, it } from "vitest";

import { recordAutosaveResults, recordLateAnswers } from "./record-answer-outcomes";
import { getMetrics } from "./registry";

/** The value of one series in the exposition text, e.g. `value('x_total{outcome="ok"}')`; 0 if absent. */
async function value(series: string): Promise<number> {
  const text = await getMetrics().registry.metrics();
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe("recordAutosaveResults and recordLateAnswers", () => {
  it("counts answers by status, and late answers by the request that carried them", async () => {
    const applied = await value('holdfast_autosave_answers_total{status="applied"}');
    recordAutosaveResults([{ status: "applied" }, { status: "applied" }, { status: "stale" }]);
    expect(await value('holdfast_autosave_answers_total{status="applied"}')).toBe(applied + 2);

    const late = await value('holdfast_late_answers_total{via="autosave"}');
    recordLateAnswers("autosave", 2);
    recordLateAnswers("autosave", 0);
    expect(await value('holdfast_late_answers_total{via="autosave"}')).toBe(late + 2);
  });
});
