import "server-only";

/** True for Postgres "lock_not_available" (55P03), raised when SET LOCAL lock_timeout expires. */
export function isLockTimeout(error: unknown): boolean {
  const seen = new Set<unknown>();
  const visit = (value: unknown): boolean => {
    if (!value || typeof value !== "object" || seen.has(value)) return false;
    seen.add(value);
    const record = value as Record<string, unknown>;
    if (record.code === "55P03" || record.originalCode === "55P03") return true;
    if (typeof record.message === "string" && /lock timeout|55P03/i.test(record.message)) return true;
    return visit(record.cause) || visit(record.meta);
  };
  return visit(error);
}
