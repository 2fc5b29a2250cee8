import "server-only";

import { UuidSchema } from "@/lib/shared/schemas/attempts";

import { db } from "../db/client";

/**
 * Whether this grader account is assigned to the exam (route access "grader", requireStaff role "grader"). An id
 * that is not a UUID (a page's raw path segment) names no exam: false, not a database error.
 */
export async function isAssignedGrader(options: { examId: string; staffUserId: string }): Promise<boolean> {
  if (!UuidSchema.safeParse(options.examId).success) return false;
  const row = await db.examGrader.findUnique({
    where: { examId_staffUserId: { examId: options.examId, staffUserId: options.staffUserId } },
    select: { examId: true },
  });
  return row !== null;
}
