import "server-only";

import { db, type Prisma } from "../db/client";

/** Whether an exam's submitted attempts can be reopened now, and if not, why. */
export type ReopenWindow =
  { isOpen: true } | { isOpen: false; reason: "status" | "closed"; examStatus: string; closesAt: string | null };

/**
 * An exam's reopening window (ADR 017): published, and closes_at (if any) not passed by the database's clock.
 * reopen-attempt.ts asks it under its locks, in its transaction; the admin's candidates page asks it to
 * disable its Reopen buttons and say why.
 */
export async function findReopenWindow(
  options: { examId: string },
  client: Pick<Prisma.TransactionClient, "$queryRaw"> = db,
): Promise<ReopenWindow> {
  const rows = await client.$queryRaw<{ status: string; closes_at: Date | null; has_closed: boolean }[]>`
    SELECT status::text AS status, closes_at, coalesce(closes_at <= clock_timestamp(), false) AS has_closed
    FROM exams WHERE id = ${options.examId}::uuid`;
  const exam = rows[0];
  const closed = { examStatus: exam?.status ?? "deleted", closesAt: exam?.closes_at?.toISOString() ?? null };
  if (!exam || exam.status !== "published") return { isOpen: false, reason: "status", ...closed };
  return exam.has_closed ? { isOpen: false, reason: "closed", ...closed } : { isOpen: true };
}
