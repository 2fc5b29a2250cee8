import "server-only";

import { db, dbPool } from "./client";

/** A parameterised statement: `$1…$n` in `text`, their values in order. */
export type SqlStatement = { text: string; values: unknown[] };

/**
 * A tagged template for raw SQL, like Prisma's `$queryRaw`: every `${value}` becomes a bind parameter,
 * never text, so nothing a caller sends is interpolated into the statement.
 */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlStatement {
  let text = strings[0] ?? "";
  for (let index = 1; index < strings.length; index += 1) text += `$${index}${strings[index] ?? ""}`;
  return { text, values };
}

/** Prisma's client or a transaction's: what can run a raw statement. */
export type RawQueryable = Pick<typeof db, "$queryRawUnsafe">;

/**
 * Runs a statement and returns its rows. Without `client`, directly on the pg pool under Prisma: the
 * autosave path's statements skip Prisma's request pipeline, which costs more CPU than the query's
 * own round trip (bench/PROFILE.md). With a transaction client, inside that transaction.
 *
 * Rows come from node-postgres's default type parsers, as from `$queryRaw`: int4 and float8 as numbers,
 * timestamptz as Date, arrays as arrays, jsonb parsed; cast int8 (count) to int in SQL.
 */
export async function queryRows<T>(statement: SqlStatement, client?: RawQueryable): Promise<T[]> {
  if (client) return client.$queryRawUnsafe<T[]>(statement.text, ...statement.values);
  const result = await dbPool.query<T & pg_QueryResultRow>(statement.text, statement.values);
  return result.rows;
}

type pg_QueryResultRow = Record<string, unknown>;
