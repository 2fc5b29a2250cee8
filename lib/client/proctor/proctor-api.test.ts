import { afterEach, describe, expect, it, vi } from "vitest";

import { extendAttempt, failureOf, fetchExamHealth, ProctorApiError } from "./proctor-api";

// The dashboard's calls go through callApi like every other form and button: JSON asked for and sent, the
// proctor's own headers kept, and every failure thrown as a ProctorApiError that says what failed.

function answer(status: number, body: unknown) {
  return vi.fn<typeof fetch>(async () => new Response(JSON.stringify(body), { status }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("proctor API calls", () => {
  it("posts JSON with the idempotency key and returns the body", async () => {
    const fetch = answer(200, { ok: true });
    vi.stubGlobal("fetch", fetch);

    await expect(extendAttempt("a1", { seconds: 600, reason: "power cut" }, "key-1")).resolves.toEqual({ ok: true });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe("/api/proctor/attempts/a1/extend");
    expect(init?.method).toBe("POST");
    expect(init?.body).toBe(JSON.stringify({ seconds: 600, reason: "power cut" }));
    expect(init?.headers).toEqual({
      Accept: "application/json",
      "Content-Type": "application/json",
      "Idempotency-Key": "key-1",
    });
  });

  it("reads without the cache", async () => {
    const fetch = answer(200, { status: "ok" });
    vi.stubGlobal("fetch", fetch);

    await fetchExamHealth("e1");
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe("/api/proctor/exams/e1/health");
    expect(init?.method).toBe("GET");
    expect(init?.cache).toBe("no-store");
    expect(init?.headers).toEqual({ Accept: "application/json" });
  });

  it("throws what failed: the API's error code, or no answer at all", async () => {
    vi.stubGlobal("fetch", answer(404, { error: { code: "NOT_FOUND", message: "Not found." } }));
    const refused = await fetchExamHealth("e1").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProctorApiError);
    expect(failureOf(refused as Error)).toMatchObject({ kind: "http", status: 404, code: "NOT_FOUND" });

    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    const unreached = await fetchExamHealth("e1").catch((error: unknown) => error);
    expect(failureOf(unreached as Error)).toEqual({ kind: "network" });
  });
});
