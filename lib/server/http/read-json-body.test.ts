import { describe, expect, it } from "vitest";

import { AppError } from "@/lib/shared/errors";
import { LIMITS } from "@/lib/shared/limits";

import { attachRequestBody } from "./fast-path-bodies.mjs";
import { readJsonBody } from "./read-json-body";

function request(body: BodyInit | null, headers: Record<string, string> = {}): Request {
  return new Request("http://holdfast.test/", {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
  });
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

  it("reads a refused upload to its end before refusing it, so the 413 is not lost to a reset", async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x78);
    const chunks = 48; // 3 MB
    let pulled = 0;
    const stream = (): ReadableStream<Uint8Array> =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled === chunks) controller.close();
          else {
            pulled += 1;
            controller.enqueue(chunk);
          }
        },
      });
    const upload = (headers: Record<string, string>): Request =>
      new Request("http://holdfast.test/", {
        method: "POST",
        body: stream(),
        duplex: "half",
        headers: { "content-type": "application/json", ...headers },
      } as RequestInit);

    expect(await codeOf(readJsonBody(upload({})))).toBe("PAYLOAD_TOO_LARGE");
    expect(pulled).toBe(chunks);
    pulled = 0;
    expect(await codeOf(readJsonBody(upload({ "content-length": String(chunks * chunk.byteLength) })))).toBe(
      "PAYLOAD_TOO_LARGE",
    );
    expect(pulled).toBe(chunks);
  });

  it("refuses an upload that stops coming without waiting for it", async () => {
    const stalled = new Request("http://holdfast.test/", {
      method: "POST",
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("{}"));
        },
      }),
      duplex: "half",
      headers: { "content-type": "application/json", "content-length": "5000000" },
    } as RequestInit);
    const startedAt = performance.now();
    expect(await codeOf(readJsonBody(stalled))).toBe("PAYLOAD_TOO_LARGE");
    expect(performance.now() - startedAt).toBeLessThan(3_000);
  });

  it("counts bytes, not characters, against the cap", async () => {
    // 300 three-byte characters: 900 bytes, 300 characters.
    const body = JSON.stringify("€".repeat(300));
    expect(await codeOf(readJsonBody(request(body), 800))).toBe("PAYLOAD_TOO_LARGE");
    expect(await readJsonBody(request(body), 1000)).toBe("€".repeat(300));
  });

  it("refuses a body that is not UTF-8 with BAD_REQUEST, instead of storing U+FFFD", async () => {
    const body = new Uint8Array([...new TextEncoder().encode('{"title":"'), 0xff, ...new TextEncoder().encode('"}')]);
    expect(await codeOf(readJsonBody(request(body)))).toBe("BAD_REQUEST");
  });

  it("refuses a JSON body not labelled as JSON with UNSUPPORTED_MEDIA_TYPE", async () => {
    const labelled = (contentType: string | null): Request =>
      new Request("http://holdfast.test/", {
        method: "POST",
        body: new TextEncoder().encode('{"a":1}'),
        headers: contentType ? { "content-type": contentType } : {},
      });
    for (const type of [
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/jsonx",
      null,
    ]) {
      expect(await codeOf(readJsonBody(labelled(type)))).toBe("UNSUPPORTED_MEDIA_TYPE");
    }
    for (const type of ["application/json", "Application/JSON; charset=utf-8", "application/merge-patch+json"]) {
      expect(await readJsonBody(labelled(type))).toEqual({ a: 1 });
    }
  });

  it("answers BAD_REQUEST, not UNSUPPORTED_MEDIA_TYPE, for a body that is not JSON at all", async () => {
    expect(await codeOf(readJsonBody(new Request("http://holdfast.test/", { method: "POST", body: "{nope" })))).toBe(
      "BAD_REQUEST",
    );
  });

  describe("a body the fast path read already (fast-path-bodies.mjs)", () => {
    const fastRequest = (text: string, headers: Record<string, string> = {}): Request => {
      const made = request(null, { "content-length": String(Buffer.byteLength(text)), ...headers });
      attachRequestBody(made, Buffer.from(text));
      return made;
    };

    it("reads the attached bytes, not the request's own (it has none)", async () => {
      expect(await readJsonBody(fastRequest('{"a":"é"}'))).toEqual({ a: "é" });
      expect(await readJsonBody(fastRequest(""))).toBeUndefined();
      // The same request without the attachment has no body at all.
      expect(await readJsonBody(request(null))).toBeUndefined();
    });

    it("refuses attached bytes as it refuses the streamed ones: malformed, too large, not UTF-8, not JSON", async () => {
      expect(await codeOf(readJsonBody(fastRequest("{")))).toBe("BAD_REQUEST");
      expect(await codeOf(readJsonBody(fastRequest(`"${"x".repeat(LIMITS.maxBodyBytes)}"`)))).toBe("PAYLOAD_TOO_LARGE");
      const latin1 = request(null);
      attachRequestBody(latin1, Buffer.from([0x22, 0xe9, 0x22]));
      expect(await codeOf(readJsonBody(latin1))).toBe("BAD_REQUEST");
      expect(await codeOf(readJsonBody(fastRequest('{"a":1}', { "content-type": "text/plain" })))).toBe(
        "UNSUPPORTED_MEDIA_TYPE",
      );
    });
  });
});
