import { describe, expect, it } from "vitest";

import { attachedResponseText } from "./fast-path-bodies.mjs";
import { jsonResponse } from "./json-response";

describe("jsonResponse", () => {
  it("answers as Response.json does, and attaches the very text its body holds", async () => {
    const response = jsonResponse(
      { b: [1, "二"], a: null },
      { status: 201, headers: { "Idempotent-Replayed": "true" } },
    );
    const reference = Response.json(
      { b: [1, "二"], a: null },
      { status: 201, headers: { "Idempotent-Replayed": "true" } },
    );
    expect(response.status).toBe(201);
    expect([...response.headers]).toEqual([...reference.headers]);
    const text = attachedResponseText(response);
    expect(text).toBe('{"b":[1,"二"],"a":null}');
    expect(await response.text()).toBe(text);
  });

  it("keeps a Content-Type the caller names, and defaults the status to 200", () => {
    const response = jsonResponse({}, { headers: { "content-type": "application/problem+json" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });

  it("refuses a value JSON cannot hold, as Response.json does, and attaches nothing to other responses", () => {
    expect(() => jsonResponse(undefined)).toThrow(TypeError);
    expect(attachedResponseText(Response.json({ a: 1 }))).toBeUndefined();
  });
});
