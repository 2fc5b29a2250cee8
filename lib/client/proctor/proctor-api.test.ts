import { afterEach, describe, expect, it, vi } from "vitest";

import { examHealth } from "@/test-support/shared/exam-health";

import { extendAttempt, failureOf, fetchExamHealth, ProctorApiError } from "./proctor-api";

// The dashboard's calls go through callApi like every other form and button: JSON asked for and sent, the
// proctor's own headers kept, each body parsed by its route's response schema; a read's failure is thrown as a
// ProctorApiError that says what failed, an action's is its result.

const EXTENDED = {
  extensionId: "6f1c2b9e-3f5a-4c1e-9a7b-2d4e6f8a0b1c",
  enrollmentId: "0b9d8c7e-6f5a-4b3c-8d2e-1f0a9b8c7d6e",
  attemptId: "7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918",
  seconds: 600,
  previousDeadline: "2026-12-01T10:00:00.000Z",
  deadline: "2026-12-01T10:10:00.000Z",
  outcome: "extended",
};

// The route's schema reads the exam id as a UUID.
const HEALTH = examHealth({ examId: "1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d" });

function answer(status: number, body: unknown) {
  return vi.fn<typeof fetch>(async () => new Response(JSON.stringify(body), { status }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("proctor API calls", () => {
  it("posts JSON with the idempotency key and resolves with the parsed body", async () => {
    const fetch = answer(200, EXTENDED);
    vi.stubGlobal("fetch", fetch);

    await expect(extendAttempt("a1", { seconds: 600, reason: "power cut" }, "key-1")).resolves.toEqual({
      ok: true,
      body: EXTENDED,
    });
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
    const fetch = answer(200, HEALTH);
    vi.stubGlobal("fetch", fetch);

    await expect(fetchExamHealth("e1")).resolves.toEqual(HEALTH);
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

  it("refuses a body that does not match its schema, for a read and an action alike", async () => {
    vi.stubGlobal("fetch", answer(200, { ...HEALTH, series: undefined }));
    const misread = await fetchExamHealth("e1").catch((error: unknown) => error);
    expect(misread).toBeInstanceOf(ProctorApiError);
    expect(failureOf(misread)).toMatchObject({ kind: "http", status: 200, code: null });

    vi.stubGlobal("fetch", answer(200, { ...EXTENDED, deadline: "10:10" }));
    await expect(extendAttempt("a1", { seconds: 600, reason: "power cut" }, "key-2")).resolves.toMatchObject({
      ok: false,
      failure: { kind: "http", status: 200, code: null },
    });
  });
});
