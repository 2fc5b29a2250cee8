import "server-only";

import { AppError } from "@/lib/shared/errors";

import type { Prisma } from "../db/client";

/**
 * The first lock of the lock order (docs/sync-protocol.md, "Lock order") for a transaction that adds rows under
 * an exam (enrollments, attempts): the exam FOR KEY SHARE, before any row below it. Deleting or editing the
 * exam (FOR UPDATE) then waits for this transaction instead of deadlocking with it. 404 when the exam is gone.
 */
export async function lockExamForKeyShare(tx: Prisma.TransactionClient, examId: string): Promise<void> {
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM exams WHERE id = ${examId}::uuid FOR KEY SHARE`;
  if (!locked[0]) throw new AppError("NOT_FOUND", "No such exam.");
}
