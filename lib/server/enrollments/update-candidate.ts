import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { UpdateCandidateInput } from "@/lib/shared/schemas/enrollments";

import { db } from "../db/client";
import { setCandidateExtraTime, type ExtraTimeChange } from "../extensions/extend-candidate";
import type { StaffCaller } from "../proctor/find-candidate-for-staff";

/**
 * An admin's edit of a candidate's accommodation: their total extra time. Through the proctor's extension
 * path (extensions/extend-candidate.ts), so during the exam the deadline moves the same way, the
 * candidate's page hears of it and the dashboard shows the new deadline.
 */
export async function updateCandidate(options: {
  examId: string;
  enrollmentId: string;
  input: UpdateCandidateInput;
  caller: StaffCaller;
}): Promise<ExtraTimeChange> {
  const { examId, enrollmentId, input, caller } = options;
  const rows = await db.$queryRaw<{ attempt_id: string | null }[]>`
    SELECT a.id::text AS attempt_id FROM enrollments e LEFT JOIN attempts a ON a.enrollment_id = e.id
    WHERE e.id = ${enrollmentId}::uuid AND e.exam_id = ${examId}::uuid`;
  const row = rows[0];
  if (!row) throw new AppError("NOT_FOUND", "No such candidate.");
  return setCandidateExtraTime({
    target: { examId, enrollmentId, attemptId: row.attempt_id },
    caller,
    totalExtraSeconds: input.extraSeconds,
    reason: "Accommodation edited by an admin",
  });
}
