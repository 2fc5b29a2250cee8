import { afterEach, describe, expect, it, vi } from "vitest";

import { RegradeQueuedSchema } from "@/lib/shared/schemas/statistics";

import { callApi } from "./call-api";

// callApi types a body by parsing it with the schema the server answers with: a matching body comes back
// parsed, a body of another shape is a failure the page can put in words (never a value of the wrong type),
// and refusals and lost connections are failures as before.

const examId = "0190f3a0-0000-7000-8000-000000000001";

function answer(status: number, body: unknown) {
  return vi.fn<typeof fetch>(async () => new Response(JSON.stringify(body), { status }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("callApi", () => {
  it("parses a success with the call's schema", async () => {
    vi.stubGlobal("fetch", answer(200, { examId, queued: 3, extra: "dropped by the schema" }));

    const result = await callApi(`/api/admin/exams/${examId}/results/regrade`, {
      method: "POST",
      schema: RegradeQueuedSchema,
    });

    expect(result).toEqual({ ok: true, body: { examId, queued: 3 } });
  });

  it("turns a body that does not match the schema into a failure with the status and no code", async () => {
    vi.stubGlobal("fetch", answer(200, { examId, queued: "three" }));

    const result = await callApi("/api/x", { schema: RegradeQueuedSchema });

    expect(result).toEqual({
      ok: false,
      failure: { kind: "http", status: 200, code: null, message: expect.any(String), issues: [] },
    });
  });

  it("returns the body unparsed without a schema, and null when there is none", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn<typeof fetch>(async () => new Response(null, { status: 204 })),
    );

    await expect(callApi("/api/x", { method: "DELETE" })).resolves.toEqual({ ok: true, body: null });
  });

  it("maps an error body to its code and validation issues, whatever the schema", async () => {
    vi.stubGlobal(
      "fetch",
      answer(422, {
        error: {
          code: "VALIDATION_FAILED",
          message: "bad",
          details: { issues: [{ path: "email", message: "Invalid email" }] },
        },
      }),
    );

    const result = await callApi("/api/x", { method: "POST", json: {}, schema: RegradeQueuedSchema });

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failure).toMatchObject({
      kind: "http",
      status: 422,
      code: "VALIDATION_FAILED",
      issues: [{ path: "email", message: "Invalid email" }],
    });
  });

  it("says a request that never got an answer is a network failure", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn<typeof fetch>(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );

    await expect(callApi("/api/x", { schema: RegradeQueuedSchema })).resolves.toEqual({
      ok: false,
      failure: { kind: "network" },
    });
  });

  it("sends JSON, or a body of its own media type, and asks for JSON", async () => {
    const fetch = answer(200, {});
    vi.stubGlobal("fetch", fetch);

    await callApi("/api/json", { method: "POST", json: { a: 1 }, headers: { "Idempotency-Key": "k" } });
    await callApi("/api/csv", { method: "POST", text: { body: "name,email", contentType: "text/csv" } });

    expect(fetch.mock.calls[0]![1]).toMatchObject({
      method: "POST",
      body: JSON.stringify({ a: 1 }),
      headers: { Accept: "application/json", "Content-Type": "application/json", "Idempotency-Key": "k" },
    });
    expect(fetch.mock.calls[1]![1]).toMatchObject({
      body: "name,email",
      headers: { Accept: "application/json", "Content-Type": "text/csv" },
    });
  });
});
