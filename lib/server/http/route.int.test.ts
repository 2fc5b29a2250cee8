// route() owns the whole request: the body read the same way for every route, the rate limit and the
// observation as options, and the error it ended with known first-hand (no re-reading of the response).
import { z } from "zod";
import { describe, expect, it, vi } from "vitest";

import { call } from "@/test-support/server/http";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";

import { getMetrics } from "../metrics/registry";
import { json, route } from "./route";

const attemptId = "0190f0c8-0000-7000-8000-000000000000";

/** The value of one series in the exposition text; 0 if absent. */
async function value(series: string): Promise<number> {
  const text = await getMetrics().registry.metrics();
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe("route()", () => {
  it("observes a request that fails: counted as an error, logged with the attempt id and the body's request id, never the body", async () => {
    const before = await value('holdfast_autosave_requests_total{outcome="error"}');
    const failing = route(
      { access: "public", params: AttemptParamsSchema, body: z.unknown(), observe: "autosave" },
      async () => {
        throw new Error("boom");
      },
    );
    const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const response = await call(failing, { params: { attemptId }, json: { answers: [{ value: "secret essay" }] } });
      expect(response.status).toBe(500);
      const lines = spy.mock.calls.map((args) => String(args[0]));
      const observed = lines.map((line) => JSON.parse(line)).find((line) => line.message === "autosave failed");
      expect(observed).toMatchObject({
        level: "error",
        attemptId,
        status: 500,
        requestId: response.body.error.details.requestId,
      });
      for (const line of lines) expect(line).not.toContain("secret essay");
    } finally {
      spy.mockRestore();
    }
    expect(await value('holdfast_autosave_requests_total{outcome="error"}')).toBe(before + 1);
  });

  it("observes what the wrapper itself refuses (a bad path, a missing body) as well as what the handler answers", async () => {
    const handler = vi.fn(async () => json({ ok: true }));
    const observed = route(
      { access: "public", params: AttemptParamsSchema, body: z.object({ n: z.number() }), observe: "heartbeat" },
      handler,
    );
    const rejected = await value('holdfast_heartbeat_requests_total{outcome="rejected"}');
    const ok = await value('holdfast_heartbeat_requests_total{outcome="ok"}');

    expect((await call(observed, { method: "POST", params: { attemptId: "not-a-uuid" }, json: { n: 1 } })).status).toBe(
      404,
    );
    expect((await call(observed, { method: "POST", params: { attemptId } })).status).toBe(400);
    expect((await call(observed, { method: "POST", params: { attemptId }, json: { n: "x" } })).status).toBe(422);
    expect((await call(observed, { method: "POST", params: { attemptId }, json: { n: 1 } })).status).toBe(200);

    expect(handler).toHaveBeenCalledOnce();
    expect(await value('holdfast_heartbeat_requests_total{outcome="rejected"}')).toBe(rejected + 3);
    expect(await value('holdfast_heartbeat_requests_total{outcome="ok"}')).toBe(ok + 1);
  });

  it("reads an optional body the same way: none gives the handler undefined, junk is still refused", async () => {
    const bodies: unknown[] = [];
    const optional = route({ access: "public", body: z.unknown(), isBodyOptional: true }, async ({ body }) => {
      bodies.push(body);
      return json({});
    });
    expect((await call(optional, { method: "POST" })).status).toBe(200);
    expect((await call(optional, { method: "POST", json: { reason: "x" } })).status).toBe(200);
    expect(bodies).toEqual([undefined, { reason: "x" }]);
    expect(
      (await call(optional, { method: "POST", raw: "{nope", headers: { "content-type": "application/json" } })).status,
    ).toBe(400);
    expect(
      (await call(optional, { method: "POST", raw: '{"reason":"x"}', headers: { "content-type": "text/plain" } }))
        .status,
    ).toBe(415);
  });
});
