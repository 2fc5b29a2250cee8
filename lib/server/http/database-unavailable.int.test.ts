// A Postgres restart is an outage, not a bug. The bug: while a benchmark restarted Postgres under load,
// the requests whose connection the server ended answered 500 INTERNAL and were logged as "unhandled
// error". The cause: errorResponse knew only a refused or timed-out connection as "database unavailable";
// a shutdown ends running sessions with SQLSTATE 57P01, which Prisma reports as a failed query, not as a
// connection problem. The fix: 57P01–57P03 and "Server has closed the connection" (P1017) also answer 503
// with Retry-After. Here the server really ends the session (pg_terminate_backend sends the same 57P01
// as a fast shutdown); the second test proves the pool goes on with a fresh connection afterwards.
import pg from "pg";
import { describe, expect, it, vi } from "vitest";

import { db } from "@/lib/server/db/client";

import { errorResponse } from "./errors";

const MARKER = "holdfast-terminate-me";

async function terminateWhenRunning(): Promise<void> {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  try {
    for (let tries = 0; tries < 100; tries += 1) {
      const { rows } = await admin.query<{ terminated: boolean }>(
        "SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE $1 AND query NOT LIKE '%pg_stat_activity%'",
        [`%${MARKER}%`],
      );
      if (rows.some((row) => row.terminated)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the query to terminate never showed up");
  } finally {
    await admin.end();
  }
}

describe("a session the database server ends", () => {
  it("answers 503 UNAVAILABLE with Retry-After, not 500", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
    // The marker is part of the statement's text (a parameter would not be), for pg_stat_activity to show.
    const query = db.$queryRawUnsafe(`SELECT pg_sleep(30) AS "${MARKER}"`).then(
      () => new Error("the query was not terminated"),
      (error: unknown) => error,
    );
    await terminateWhenRunning();
    const response = errorResponse(await query);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("2");
    expect((await response.json()).error.code).toBe("UNAVAILABLE");
    spy.mockRestore();
  });

  it("leaves the pool working: the next query gets a live connection", async () => {
    expect(await db.$queryRaw<{ ok: number }[]>`SELECT 1 AS ok`).toEqual([{ ok: 1 }]);
  });
});

// The same bug under overload: a deadline storm on one instance answered hundreds of 500 INTERNAL once
// every pooled connection was busy for longer than the pool waits (`connectionTimeoutMillis`). A client
// retries a 500 too, but without Retry-After, and the log called it a bug. It is backpressure: 503 with
// Retry-After, like an outage. Here the pool is really exhausted: its one connection is held.
describe("a pool with every connection busy", () => {
  it("answers 503 UNAVAILABLE with Retry-After, not 500", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1, connectionTimeoutMillis: 100 });
    const held = await pool.connect();
    try {
      const error = await pool.query("SELECT 1").then(
        () => new Error("the query got a connection"),
        (caught: unknown) => caught,
      );
      const response = errorResponse(error);
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("2");
    } finally {
      held.release();
      await pool.end();
      spy.mockRestore();
    }
  });

  it("answers 503 when a submit's transaction cannot start in time", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
    // Prisma's own words for a transaction that waited longer than `maxWait` for a connection.
    const error = Object.assign(new Error("Transaction API error: Unable to start a transaction in the given time."), {
      name: "PrismaClientKnownRequestError",
      code: "P2028",
    });
    expect(errorResponse(error).status).toBe(503);
    spy.mockRestore();
  });
});
