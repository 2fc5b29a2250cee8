import "server-only";

import { cache } from "react";

import { UuidSchema } from "@/lib/shared/schemas/attempts";

import { db } from "../db/client";

/**
 * One query per request for a grader and an exam: a page under /admin/exams/[examId] and its layout both check the
 * grader (app/admin/exams/[examId]/staff-exam.ts). Keyed by the two ids, because `cache` compares its arguments by
 * identity and an options object is new at every call. In a route handler there is no render to cache for, and this
 * is a plain query.
 */
const findAssignment = cache(async (examId: string, staffUserId: string) =>
  db.examGrader.findUnique({
    where: { examId_staffUserId: { examId, staffUserId } },
    select: { examId: true },
  }),
);

/**
 * Whether this grader account is assigned to the exam (route access "grader", requireStaff role "grader"). An id
 * that is not a UUID (a page's raw path segment) names no exam: false, not a database error.
 */
export async function isAssignedGrader(options: { examId: string; staffUserId: string }): Promise<boolean> {
  if (!UuidSchema.safeParse(options.examId).success) return false;
  return (await findAssignment(options.examId, options.staffUserId)) !== null;
}
