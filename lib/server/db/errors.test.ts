import { describe, expect, it } from "vitest";

import { isForeignKeyViolation, isLockTimeout, transientConflictOf } from "./errors";

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

  // The shapes the app really meets (lib/server/http/database-conflict.int.test.ts makes Postgres raise them).
  it("names a transient conflict from the pg pool, Prisma's raw queries and Prisma's model queries", () => {
    expect(transientConflictOf({ code: "40P01", message: "deadlock detected" })).toBe("deadlock");
    const prismaRaw = Object.assign(
      new Error(
        "Invalid `prisma.$executeRawUnsafe()` invocation:\n\nRaw query failed. Code: `40P01`. Message: `deadlock detected`",
      ),
      {
        code: "P2010",
        meta: {
          driverAdapterError: Object.assign(new Error("TransactionWriteConflict"), {
            cause: { originalCode: "40P01", originalMessage: "deadlock detected", kind: "TransactionWriteConflict" },
          }),
        },
      },
    );
    expect(transientConflictOf(prismaRaw)).toBe("deadlock");
    // The message alone is not needed: the driver adapter's error carries the SQLSTATE.
    expect(transientConflictOf({ code: "P2010", meta: prismaRaw.meta })).toBe("deadlock");
    expect(
      transientConflictOf(
        Object.assign(
          new Error("Transaction failed due to a write conflict or a deadlock. Please retry your transaction"),
          {
            code: "P2034",
          },
        ),
      ),
    ).toBe("write_conflict");
    expect(transientConflictOf({ code: "40001" })).toBe("serialization_failure");
    expect(transientConflictOf(new Error("canceling statement due to lock timeout"))).toBe("lock_timeout");
  });

  it("is null for everything else", () => {
    expect(transientConflictOf({ code: "23505" })).toBeNull();
    expect(transientConflictOf(new Error("connect ECONNREFUSED 127.0.0.1:5432"))).toBeNull();
    expect(transientConflictOf(new Error("Raw query failed. Code: `57P01`."))).toBeNull();
    expect(transientConflictOf(undefined)).toBeNull();
  });
});
