import "server-only";

import { PrismaPg } from "@prisma/adapter-pg";

import { env } from "../env.mjs";
import { PrismaClient } from "./generated/client.ts";

export type { Prisma } from "./generated/client.ts";

const globalForDb = globalThis as unknown as { holdfastDb?: PrismaClient };

function createClient(): PrismaClient {
  const adapter = new PrismaPg({
    connectionString: env.DATABASE_URL,
    max: env.DATABASE_POOL_MAX,
    connectionTimeoutMillis: 5_000,
  });
  return new PrismaClient({ adapter });
}

/** The one Prisma client of this process (memoised so dev reloads and tests do not leak pools). */
export const db: PrismaClient = (globalForDb.holdfastDb ??= createClient());
