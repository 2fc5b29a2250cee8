import { describe, expect, it, vi } from "vitest";
import { z } from "zod";

import { AppError } from "@/lib/shared/errors";

import { appErrorResponse, errorResponse, toAppError } from "./errors";

describe("errorResponse", () => {
  it("renders AppErrors with their status and headers", async () => {
    const response = errorResponse(new AppError("RATE_LIMITED", "Busy.", { headers: { "Retry-After": "3" } }));
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("3");
    expect(await response.json()).toEqual({ error: { code: "RATE_LIMITED", message: "Busy." } });
  });

  it("turns zod errors into 422 with field paths", async () => {
    const result = z.object({ a: z.object({ b: z.number() }) }).safeParse({ a: { b: "x" } });
    if (result.success) throw new Error("expected failure");
    const response = errorResponse(result.error);
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.error.details.issues[0].path).toBe("a.b");
  });

  it("never echoes internals on a 500, and gives a request id to find the log line", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = errorResponse(new Error("secret internals at /srv/app.ts:12"));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain("secret");
    expect(JSON.parse(text).error.details.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(spy).toHaveBeenCalledOnce();
    spy.mockRestore();
  });

  it("answers 503 with Retry-After when the database is unreachable", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = errorResponse(
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("2");
    spy.mockRestore();
  });

  // What the app logged as "unhandled error" (and answered 500 INTERNAL) while a benchmark restarted
  // Postgres: the messages Prisma gives for a pooled connection the server closed and for SQLSTATEs 57P01
  // and 57P03. They are an outage to wait out, like ECONNREFUSED; see database-unavailable.int.test.ts.
  it.each([
    ["a pooled connection the server closed", "P1017", "Server has closed the connection."],
    [
      "a raw query on a closed connection",
      "P2010",
      "Raw query failed. Code: `N/A`. Message: `Server has closed the connection.`",
    ],
    [
      "a fast or immediate shutdown",
      "P2010",
      "Raw query failed. Code: `57P01`. Message: `terminating connection due to administrator command`",
    ],
    [
      "a restart in progress",
      "P2010",
      "Raw query failed. Code: `57P03`. Message: `the database system is starting up`",
    ],
  ])("answers 503 for %s", async (_, code, message) => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = errorResponse(
      Object.assign(new Error(`\nInvalid \`prisma.$queryRaw()\` invocation:\n\n\n${message}`), {
        name: "PrismaClientKnownRequestError",
        code,
      }),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("2");
    spy.mockRestore();
  });

  it("answers a deadlock 503 with Retry-After: 1, logged at warn (not error) with the operation", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const failure = toAppError(Object.assign(new Error("deadlock detected"), { code: "40P01" }), {
      operation: "POST /api/attempts/x/answers",
    });
    const response = appErrorResponse(failure);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect((await response.json()).error.code).toBe("UNAVAILABLE");
    expect(error).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledOnce();
    expect(JSON.parse(String(warn.mock.calls[0]![0]))).toMatchObject({
      level: "warn",
      operation: "POST /api/attempts/x/answers",
      conflict: "deadlock",
    });
    warn.mockRestore();
    error.mockRestore();
  });

  it("still answers 500 for a query error that is not an outage", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = errorResponse(
      Object.assign(new Error('Raw query failed. Code: `42601`. Message: `syntax error at or near "SELEC"`'), {
        name: "PrismaClientKnownRequestError",
        code: "P2010",
      }),
    );
    expect(response.status).toBe(500);
    spy.mockRestore();
  });
});
