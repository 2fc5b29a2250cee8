// A deadlock is a defect of lock order, but never a 500. The bug: CI once saw an autosave answer 500
// INTERNAL, logged as "unhandled error", because Postgres ended its statement with "deadlock detected"
// (40P01). The cause of the deadlock is fixed by the lock order (docs/sync-protocol.md, "Lock order"); this
// is the defence in depth: a transaction Postgres ends to break a deadlock, a serialization failure or an
// expired lock_timeout was rolled back and succeeds when sent again, so it answers 503 UNAVAILABLE with
// `Retry-After: 1` (which every sync client retries), logged at warn with the operation. Here Postgres
// really detects the deadlocks, through both ways the app reaches it (the pg pool of the autosave's
// statement, and Prisma's transactions); the last test proves an ordinary query error is still a 500.
import { randomUUID } from "node:crypto";

import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it, vi } from "vitest";

import { db, dbPool } from "@/lib/server/db/client";

import { errorResponse } from "./errors";
import { route } from "./route";

const table = `deadlock_probe_${randomUUID().replaceAll("-", "")}`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let warned: string[] = [];
let errored: string[] = [];

beforeAll(async () => {
  await db.$executeRawUnsafe(`CREATE TABLE ${table} (id int PRIMARY KEY, v int NOT NULL)`);
});

afterAll(async () => {
  await db.$executeRawUnsafe(`DROP TABLE ${table}`);
});

beforeEach(async () => {
  await db.$executeRawUnsafe(`TRUNCATE ${table}`);
  await db.$executeRawUnsafe(`INSERT INTO ${table} VALUES (1, 0), (2, 0)`);
  warned = [];
  errored = [];
  vi.spyOn(console, "warn").mockImplementation((line: unknown) => void warned.push(String(line)));
  vi.spyOn(console, "error").mockImplementation((line: unknown) => void errored.push(String(line)));
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Two transactions that update rows 1 and 2 in opposite orders: Postgres ends one of them. */
async function prismaDeadlock(): Promise<unknown> {
  const crossing = (first: number, second: number) =>
    db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`UPDATE ${table} SET v = v + 1 WHERE id = ${first}`);
      await pause(150);
      await tx.$executeRawUnsafe(`UPDATE ${table} SET v = v + 1 WHERE id = ${second}`);
    });
  const outcomes = await Promise.allSettled([crossing(1, 2), crossing(2, 1)]);
  const failures = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason as unknown] : []));
  expect(failures).toHaveLength(1);
  return failures[0];
}

/** The same on two pooled pg connections (the autosave statement's way to Postgres). */
async function poolDeadlock(): Promise<unknown> {
  const [one, two] = await Promise.all([dbPool.connect(), dbPool.connect()]);
  try {
    await Promise.all([one.query("BEGIN"), two.query("BEGIN")]);
    await one.query(`UPDATE ${table} SET v = v + 1 WHERE id = 1`);
    await two.query(`UPDATE ${table} SET v = v + 1 WHERE id = 2`);
    const outcomes = await Promise.allSettled([
      one.query(`UPDATE ${table} SET v = v + 1 WHERE id = 2`),
      two.query(`UPDATE ${table} SET v = v + 1 WHERE id = 1`),
    ]);
    const failures = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason as unknown] : []));
    expect(failures).toHaveLength(1);
    return failures[0];
  } finally {
    await Promise.all([one.query("ROLLBACK"), two.query("ROLLBACK")]);
    one.release();
    two.release();
  }
}

/** A lock wait past a short lock_timeout, outside the locked-attempt transaction (which answers 409 itself). */
async function lockTimeout(): Promise<unknown> {
  const holder = await dbPool.connect();
  try {
    await holder.query("BEGIN");
    await holder.query(`SELECT * FROM ${table} WHERE id = 1 FOR UPDATE`);
    return await db
      .$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '100ms'`);
        await tx.$executeRawUnsafe(`UPDATE ${table} SET v = v + 1 WHERE id = 1`);
      })
      .then(
        () => new Error("the update did not time out"),
        (error: unknown) => error,
      );
  } finally {
    await holder.query("ROLLBACK");
    holder.release();
  }
}

async function expectRetryable(response: Response): Promise<void> {
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toBe("1");
  const body = await response.json();
  expect(body.error).toMatchObject({
    code: "UNAVAILABLE",
    message: "The service was briefly busy. Retry in a moment.",
  });
  expect(body.error.details.requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(JSON.stringify(body)).not.toMatch(/deadlock|40P01|55P03|lock timeout/i);
  expect(errored).toEqual([]);
  expect(warned).toHaveLength(1);
  expect(JSON.parse(warned[0]!)).toMatchObject({ level: "warn", requestId: body.error.details.requestId });
}

describe("a transaction Postgres ends to break a deadlock or a lock wait", () => {
  it("answers 503 UNAVAILABLE with Retry-After: 1 for a deadlock in a Prisma transaction", async () => {
    const response = errorResponse(await prismaDeadlock());
    await expectRetryable(response);
    expect(JSON.parse(warned[0]!)).toMatchObject({ conflict: "deadlock" });
  });

  it("answers 503 for a deadlock on the pg pool (the autosave statement's path)", async () => {
    await expectRetryable(errorResponse(await poolDeadlock()));
    expect(JSON.parse(warned[0]!)).toMatchObject({ conflict: "deadlock" });
  });

  it("answers 503 for a lock wait past lock_timeout (55P03)", async () => {
    await expectRetryable(errorResponse(await lockTimeout()));
    expect(JSON.parse(warned[0]!)).toMatchObject({ conflict: "lock_timeout" });
  });

  it("through route(): the warning names the operation, the response is the retryable 503", async () => {
    const handler = route({ access: "public" }, async () => {
      throw await prismaDeadlock();
    });
    const response = await handler(new Request("http://holdfast.test/api/probe/deadlock", { method: "POST" }), {
      params: Promise.resolve({}),
    });
    await expectRetryable(response);
    expect(JSON.parse(warned[0]!)).toMatchObject({
      message: "database conflict, answered 503 to retry",
      operation: "POST /api/probe/deadlock",
      conflict: "deadlock",
    });
  });

  it("still answers 500, logged as an error, for a query error that is not a conflict", async () => {
    const error = await db.$executeRawUnsafe(`INSERT INTO ${table} VALUES (1, 0)`).then(
      () => new Error("the duplicate was inserted"),
      (failure: unknown) => failure,
    );
    const response = errorResponse(error);
    expect(response.status).toBe(500);
    expect(warned).toEqual([]);
    expect(errored).toHaveLength(1);
  });
});
