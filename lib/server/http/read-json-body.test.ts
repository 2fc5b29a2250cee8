import { describe, expect, it } from "vitest";

import { AppError } from "@/lib/shared/errors";

import { readJsonBody } from "./read-json-body";

function request(body: BodyInit | null, headers: Record<string, string> = {}): Request {
  return new Request("http://holdfast.test/", { method: "POST", body, headers });
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error instanceof AppError ? error.code : "not an AppError";
  }
}

describe("readJsonBody", () => {
  it("parses JSON and returns undefined for an empty body", async () => {
    expect(await readJsonBody(request('{"a":1}'))).toEqual({ a: 1 });
    expect(await readJsonBody(request(null))).toBeUndefined();
    expect(await readJsonBody(request("  "))).toBeUndefined();
  });

  it("refuses malformed JSON with BAD_REQUEST", async () => {
    expect(await codeOf(readJsonBody(request("{nope")))).toBe("BAD_REQUEST");
  });

  it("refuses a declared length over the cap before reading", async () => {
    expect(await codeOf(readJsonBody(request("{}", { "content-length": "2000000" })))).toBe("PAYLOAD_TOO_LARGE");
  });

  it("counts bytes, not characters, against the cap", async () => {
    // 300 three-byte characters: 900 bytes, 300 characters.
    const body = JSON.stringify("€".repeat(300));
    expect(await codeOf(readJsonBody(request(body), 800))).toBe("PAYLOAD_TOO_LARGE");
    expect(await readJsonBody(request(body), 1000)).toBe("€".repeat(300));
  });
});
