import { describe, expect, it } from "vitest";

import { DELETE, GET, POST } from "./route";

describe("unknown /api routes", () => {
  it.each([
    ["GET", GET],
    ["POST", POST],
    ["DELETE", DELETE],
  ] as const)("%s answers 404 with the one error body", async (method, handler) => {
    const response = await handler();
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: "NOT_FOUND", message: "No such API endpoint." } });
  });
});

// Found by `npm run bench -- bad-input`. Bug: a method a route lacks (PUT on the autosave, GET on the submit,
// POST on the health check) got Next.js's bare 405 with no body, not the one error body. Fix: every route
// exports methodsNotAllowed(...) for the methods it lacks; its own methods are untouched.
describe("methods a route lacks", async () => {
  const answers = await import("../attempts/[attemptId]/answers/route");
  const submit = await import("../attempts/[attemptId]/submit/route");
  const health = await import("../health/route");
  const session = await import("../session/route");

  it.each([
    ["PUT /api/attempts/{id}/answers", answers.PUT, "POST"],
    ["GET /api/attempts/{id}/submit", submit.GET, "POST"],
    ["POST /api/health", health.POST, "GET"],
    ["PATCH /api/session", session.PATCH, "POST, DELETE"],
  ] as const)("%s answers 405 METHOD_NOT_ALLOWED with Allow", async (_name, handler, allow) => {
    const response = handler();
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe(allow);
    expect(await response.json()).toEqual({
      error: { code: "METHOD_NOT_ALLOWED", message: `This path takes ${allow} only.` },
    });
  });

  it("answers OPTIONS with the route's own methods", () => {
    expect(submit.OPTIONS().headers.get("allow")).toBe("POST, OPTIONS");
    expect(health.OPTIONS().headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  it("leaves a route's own methods alone", async () => {
    const response = await health.GET(new Request("http://holdfast.test/api/health"), { params: Promise.resolve({}) });
    expect(response.status).toBe(200);
  });
});
