import { describe, expect, it } from "vitest";

import { isForeignKeyViolation, isLockTimeout } from "./errors";

describe("database error classification", () => {
  it("finds the SQLSTATE on the error, its cause or Prisma's meta", () => {
    expect(isLockTimeout({ code: "55P03" })).toBe(true);
    expect(isLockTimeout(new Error("wrapped", { cause: { originalCode: "55P03" } }))).toBe(true);
    expect(isLockTimeout(new Error("canceling statement due to lock timeout"))).toBe(true);
    expect(isForeignKeyViolation({ code: "P2003", meta: {} })).toBe(true);
    expect(isForeignKeyViolation(new Error("x", { cause: { code: "23503" } }))).toBe(true);
  });

  it("does not confuse the two, or other errors", () => {
    expect(isLockTimeout({ code: "23503" })).toBe(false);
    expect(isForeignKeyViolation({ code: "55P03" })).toBe(false);
    expect(isForeignKeyViolation(new Error("connect ECONNREFUSED"))).toBe(false);
    expect(isLockTimeout(null)).toBe(false);
  });

  it("survives cyclic causes", () => {
    const error: { code: string; cause?: unknown } = { code: "XX000" };
    error.cause = error;
    expect(isLockTimeout(error)).toBe(false);
  });
});
