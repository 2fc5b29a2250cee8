import "server-only";

import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

import { env } from "../env.mjs";
import { PrismaClient } from "./generated/client.ts";

export type { Prisma } from "./generated/client.ts";

type Database = { client: PrismaClient; pool: pg.Pool };

const globalForDb = globalThis as unknown as { holdfastDatabase?: Database };

// One pg pool for the process. Prisma runs on it through the adapter; the few statements on the
// autosave path run on it directly (lib/server/db/sql.ts), without Prisma's per-query work.
function createDatabase(): Database {
  const pool = new pg.Pool({
    connectionString: env.DATABASE_URL,
    max: env.DATABASE_POOL_MAX,
    connectionTimeoutMillis: 5_000,
  });
  // With an external pool, the adapter ends it on $disconnect only when asked to, as it did its own.
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  return { client: new PrismaClient({ adapter }), pool };
}

const database = (globalForDb.holdfastDatabase ??= createDatabase());

/** The one Prisma client of this process (memoised so dev reloads and tests do not leak pools). */
export const db: PrismaClient = database.client;

/** The pg pool under `db`, for the hot raw statements of lib/server/db/sql.ts. */
export const dbPool: pg.Pool = database.pool;
