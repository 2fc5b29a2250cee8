import "server-only";

import { db, dbPool } from "./client";

/** A parameterised statement: `$1…$n` in `text`, their values in order; `name` when prepared. */
export type SqlStatement = { text: string; values: unknown[]; name?: string };

/**
 * A tagged template for raw SQL, like Prisma's `$queryRaw`: every `${value}` becomes a bind parameter,
 * never text, so nothing a caller sends is interpolated into the statement.
 */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlStatement {
  let text = strings[0] ?? "";
  for (let index = 1; index < strings.length; index += 1) text += `$${index}${strings[index] ?? ""}`;
  return { text, values };
}

/**
 * Marks a statement to be prepared once per pooled connection and executed by name afterwards. Postgres
 * then parses and plans it once per connection instead of on every call: for the autosave's statement,
 * planning alone was about 0.3 ms of Postgres CPU per call. Only for statements whose text never changes
 * (the name stands for the text on every connection). Inside a transaction client it runs unprepared.
 */
export function prepared(name: string, statement: SqlStatement): SqlStatement {
  return { ...statement, name };
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
  const result = await dbPool.query<T & pg_QueryResultRow>({
    text: statement.text,
    values: statement.values,
    name: statement.name,
  });
  return result.rows;
}

type pg_QueryResultRow = Record<string, unknown>;
