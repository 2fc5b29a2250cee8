import "server-only";

import type { Prisma } from "../db/client";

export type LockedAttempt = { status: "in_progress" | "submitted"; isOverdue: boolean };

/**
 * Locks an attempt's row FOR UPDATE inside the caller's transaction and says whether it is still open.
 * Every freeze (candidate submit, auto-submit) goes through this lock, and so does every autosave (in
 * its own statement), which is what serialises them. `isOverdue` is judged by the database's clock.
 */
export async function lockAttemptRow(tx: Prisma.TransactionClient, attemptId: string): Promise<LockedAttempt | null> {
  const rows = await tx.$queryRaw<{ status: string; overdue: boolean }[]>`
    SELECT a.status::text AS status, clock_timestamp() > a.deadline + make_interval(secs => e.grace_seconds) AS overdue
    FROM attempts a JOIN exams e ON e.id = a.exam_id
    WHERE a.id = ${attemptId}::uuid
    FOR UPDATE OF a`;
  const row = rows[0];
  if (!row) return null;
  return { status: row.status === "submitted" ? "submitted" : "in_progress", isOverdue: row.overdue };
}
