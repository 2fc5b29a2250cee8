import { describe, expect, it } from "vitest";

import { LABEL_GAP, fitLabels } from "./fit-labels";

/** 7 px a character, as a monospaced font would. */
const measure = (text: string) => [...text].length * 7;

/** Where each shown label starts and ends, centred under its bar. */
function extents(shown: string[], slot: number) {
  return shown
    .map((label, index) => ({ label, centre: (index + 0.5) * slot }))
    .filter(({ label }) => label !== "")
    .map(({ label, centre }) => [centre - measure(label) / 2, centre + measure(label) / 2] as const);
}

describe("fitLabels", () => {
  it("labels every bar when the labels fit", () => {
    expect(fitLabels(["Q1", "Q2", "Q3"], 60, measure)).toEqual(["Q1", "Q2", "Q3"]);
  });

  it("labels every other bar when two would touch, and never lets two shown labels overlap", () => {
    const bins = ["0–0.4", "0.4–0.8", "0.8–1.2", "1.2–1.6", "1.6–2", "2–2.4"];
    const shown = fitLabels(bins, 40, measure);
    expect(shown).toEqual(["0–0.4", "", "0.8–1.2", "", "1.6–2", ""]);
    const spans = extents(shown, 40);
    for (let index = 1; index < spans.length; index += 1)
      expect(spans[index]![0] - spans[index - 1]![1]).toBeGreaterThanOrEqual(LABEL_GAP);
  });

  it("cuts a label too long for any step with an ellipsis, so long option texts fit on a phone", () => {
    const options = ["Transmission Control Protocol", "User Datagram Protocol", "ARP", "ICMP"];
    const shown = fitLabels(options, 40, measure);
    for (const label of shown) expect(measure(label)).toBeLessThanOrEqual(3 * 40 - LABEL_GAP);
    expect(shown).toEqual(["Transmission Co…", "", "", "ICMP"]);
  });

  it("keeps Chinese labels whole where they fit", () => {
    expect(fitLabels(["第1题", "第2题"], 80, (text) => [...text].length * 13)).toEqual(["第1题", "第2题"]);
  });
});
