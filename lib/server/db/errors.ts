import "server-only";

/** True when `error` (or its cause, or Prisma's meta) carries the Postgres SQLSTATE `code`, or `pattern` matches its message. */
function hasSqlState(error: unknown, code: string, pattern: RegExp): boolean {
  const seen = new Set<unknown>();
  const visit = (value: unknown): boolean => {
    if (!value || typeof value !== "object" || seen.has(value)) return false;
    seen.add(value);
    const record = value as Record<string, unknown>;
    if (record.code === code || record.originalCode === code) return true;
    if (typeof record.message === "string" && pattern.test(record.message)) return true;
    return visit(record.cause) || visit(record.meta);
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
