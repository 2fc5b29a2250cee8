import { describe, expect, it, vi } from "vitest";

import { getMetrics } from "../metrics/registry";
import { observeSyncRequest } from "./observe-sync-request";

/** The value of one series in the exposition text, e.g. `value('x_total{outcome="ok"}')`; 0 if absent. */
async function value(series: string): Promise<number> {
  const text = await getMetrics().registry.metrics();
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

const attemptId = "0190f0c8-0000-7000-8000-000000000000";

describe("observeSyncRequest", () => {
  it("counts and times each request by outcome", async () => {
    const before = await value('holdfast_submit_requests_total{outcome="replayed"}');
    const response = Response.json({}, { headers: { "Idempotent-Replayed": "true" } });
    observeSyncRequest({ endpoint: "submit", response, attemptId, seconds: 0.012 });

    expect(await value('holdfast_submit_requests_total{outcome="replayed"}')).toBe(before + 1);
    expect(await value('holdfast_submit_request_duration_seconds_count{outcome="replayed"}')).toBeGreaterThanOrEqual(1);
  });

  it("logs a 5xx with the attempt id and request id, not the body", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      // What route() hands over for a request whose body held an essay and whose handler threw.
      const response = Response.json(
        { error: { code: "INTERNAL", message: "x", details: { requestId: "req-1" } } },
        { status: 500 },
      );
      observeSyncRequest({
        endpoint: "autosave",
        response,
        errorCode: "INTERNAL",
        requestId: "req-1",
        attemptId,
        seconds: 0.2,
      });
      const line = JSON.parse(String(spy.mock.calls.at(-1)?.[0]));
      expect(line).toMatchObject({
        level: "error",
        message: "autosave failed",
        attemptId,
        status: 500,
        requestId: "req-1",
      });
      expect(JSON.stringify(line)).not.toContain("secret essay");
    } finally {
      spy.mockRestore();
    }
    expect(await value('holdfast_autosave_requests_total{outcome="error"}')).toBeGreaterThanOrEqual(1);
  });
});
