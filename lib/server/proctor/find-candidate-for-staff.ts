import "server-only";

import type { ApiTokenPrincipal, StaffPrincipal } from "../auth/sessions";
import { db } from "../db/client";

export type StaffCaller = StaffPrincipal | ApiTokenPrincipal;

export type CandidateTarget = {
  enrollmentId: string;
  examId: string;
  /** Null when the candidate has not started. */
  attemptId: string | null;
};

/**
 * The proctor whose assignments limit what the caller sees, or null when the caller sees every exam
 * (an admin, the API token). The queries below put it in their WHERE clause.
 */
function scopedProctorId(caller: StaffCaller): string | null {
  return caller.kind === "staff" && caller.role === "proctor" ? caller.userId : null;
}

/**
 * The candidate a proctor action names by `id`: an attempt id, or (for a candidate who has not started, who
 * has no attempt yet) their enrollment id. Null when no such candidate is in an exam the caller may see:
 * authorization is in the query, so the caller cannot tell a missing id from another exam's (404 either way).
 */
export async function findCandidateForStaff(options: {
  id: string;
  caller: StaffCaller;
}): Promise<CandidateTarget | null> {
  const proctorId = scopedProctorId(options.caller);
  // Two primary-key lookups rather than one OR across the join, which would scan every enrollment.
  const rows = await db.$queryRaw<{ enrollment_id: string; exam_id: string; attempt_id: string | null }[]>`
    SELECT c.enrollment_id, c.exam_id::text AS exam_id, c.attempt_id
    FROM (
      SELECT a.enrollment_id::text AS enrollment_id, a.exam_id, a.id::text AS attempt_id FROM attempts a WHERE a.id = ${options.id}::uuid
      UNION ALL
      SELECT e.id::text, e.exam_id, a.id::text FROM enrollments e LEFT JOIN attempts a ON a.enrollment_id = e.id WHERE e.id = ${options.id}::uuid
    ) c
    WHERE ${proctorId}::uuid IS NULL
       OR EXISTS (SELECT 1 FROM exam_proctors p WHERE p.exam_id = c.exam_id AND p.staff_user_id = ${proctorId}::uuid)
    LIMIT 1`;
  const row = rows[0];
  if (!row) return null;
  return { enrollmentId: row.enrollment_id, examId: row.exam_id, attemptId: row.attempt_id };
}

/** "Ada Lovelace <ada@example.com>" or "API token": who did it, as proctors read it. */
export function actorLabel(caller: StaffCaller): string {
  return caller.kind === "api-token" ? "API token" : `${caller.name} <${caller.email}>`;
}
