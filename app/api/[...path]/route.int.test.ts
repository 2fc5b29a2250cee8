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
