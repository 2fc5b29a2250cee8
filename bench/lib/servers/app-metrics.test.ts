import { describe, expect, it } from "vitest";

import { formatUpperBound, parseHistogram, quantileUpperBound, type AppHistogram } from "./app-metrics";

const EXPOSITION = [
  "# HELP process_start_time_seconds Start time of the process since unix epoch in seconds.",
  "process_start_time_seconds 1796380154",
  'holdfast_submit_request_duration_seconds_bucket{le="0.1",outcome="ok"} 26',
  'holdfast_submit_request_duration_seconds_bucket{le="1",outcome="ok"} 607',
  'holdfast_submit_request_duration_seconds_bucket{le="+Inf",outcome="ok"} 700',
  'holdfast_submit_request_duration_seconds_bucket{le="1",outcome="replayed"} 9',
  'holdfast_autosave_request_duration_seconds_bucket{le="1",outcome="ok"} 5000',
].join("\n");

describe("the app's own request histograms", () => {
  it("reads one endpoint's buckets for one outcome, +Inf as Infinity, and the lines that tell the worker apart", () => {
    const { buckets, identity } = parseHistogram(EXPOSITION, "holdfast_submit_request_duration_seconds", "ok");
    expect([...buckets]).toEqual([
      [0.1, 26],
      [1, 607],
      [Infinity, 700],
    ]);
    expect(identity).toContain("process_start_time_seconds 1796380154");
    expect(parseHistogram(EXPOSITION, "holdfast_heartbeat_request_duration_seconds", "ok").buckets.size).toBe(0);
  });

  it("gives the bucket a quantile falls in, as an upper bound", () => {
    const histogram: AppHistogram = { bounds: [0.1, 1, 2.5, Infinity], cumulative: [10, 50, 99, 100], count: 100 };
    expect(quantileUpperBound(histogram, 0.1)).toBe(0.1);
    expect(quantileUpperBound(histogram, 0.5)).toBe(1);
    expect(quantileUpperBound(histogram, 0.99)).toBe(2.5);
    expect(quantileUpperBound(histogram, 1)).toBe(Infinity);
    expect(quantileUpperBound({ bounds: [1, Infinity], cumulative: [0, 0], count: 0 }, 0.99)).toBeNull();
    expect(formatUpperBound(0.25)).toBe("≤ 250 ms");
    expect(formatUpperBound(2.5)).toBe("≤ 2.5 s");
    expect(formatUpperBound(Infinity)).toBe("> the last bucket");
  });
});
