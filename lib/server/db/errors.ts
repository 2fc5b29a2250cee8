import "server-only";

/**
 * True when `error` (or its cause, Prisma's meta, or the driver adapter's error inside it) carries the Postgres
 * SQLSTATE `code`, or `pattern` matches its message.
 */
function hasSqlState(error: unknown, code: string, pattern: RegExp): boolean {
  const seen = new Set<unknown>();
  const visit = (value: unknown): boolean => {
    if (!value || typeof value !== "object" || seen.has(value)) return false;
    seen.add(value);
    const record = value as Record<string, unknown>;
    if (record.code === code || record.originalCode === code) return true;
    if (typeof record.message === "string" && pattern.test(record.message)) return true;
    return visit(record.cause) || visit(record.meta) || visit(record.driverAdapterError);
  };
  return visit(error);
}

/** True for Postgres "lock_not_available" (55P03), raised when SET LOCAL lock_timeout expires. */
export function isLockTimeout(error: unknown): boolean {
  return hasSqlState(error, "55P03", /lock timeout|55P03/i);
}

/** True for a foreign-key violation (23503 / Prisma P2003): the row it points at is gone. */
export function isForeignKeyViolation(error: unknown): boolean {
  return hasSqlState(error, "23503", /foreign key|23503|P2003/i) || hasSqlState(error, "P2003", /P2003/);
}

/** True for a unique violation (23505 / Prisma P2002): the row already exists. */
export function isUniqueViolation(error: unknown): boolean {
  return hasSqlState(error, "23505", /unique constraint|23505|P2002/i) || hasSqlState(error, "P2002", /P2002/);
}

/**
 * Why Postgres gave up on a statement that changed nothing and may simply be run again, or null:
 * - `deadlock` (40P01): two transactions waited for each other and this one was chosen to end the wait;
 * - `serialization_failure` (40001);
 * - `write_conflict`: Prisma's P2034 ("a write conflict or a deadlock"), which does not say which;
 * - `lock_timeout` (55P03): a `lock_timeout` expired.
 *
 * Raw queries through Prisma carry the SQLSTATE in their message and in the driver adapter's error; the pg
 * pool's errors in `code`. The lock order (docs/sync-protocol.md, "Lock order") keeps the first from
 * happening; lib/server/http/errors.ts answers any of them 503 with `Retry-After: 1`, never 500.
 */
export function transientConflictOf(
  error: unknown,
): "deadlock" | "serialization_failure" | "write_conflict" | "lock_timeout" | null {
  if (hasSqlState(error, "40P01", /deadlock detected|40P01/i)) return "deadlock";
  if (hasSqlState(error, "40001", /could not serialize access|40001/i)) return "serialization_failure";
  if (hasSqlState(error, "P2034", /write conflict or a deadlock|P2034/i)) return "write_conflict";
  if (isLockTimeout(error)) return "lock_timeout";
  return null;
}
