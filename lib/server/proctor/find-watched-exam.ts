import "server-only";

import type { ApiTokenPrincipal, StaffPrincipal } from "../auth/sessions";
import { queryRows, sql } from "../db/sql";

export type WatchedExam = { id: string; title: string };

/**
 * The exam a dashboard watches, if the caller may watch it: admins and the API token every exam, a proctor
 * only the exams assigned to them, so any other id reads as missing (null → 404). The same rule as
 * findExamForStaff, without loading questions and every enrollment's join link, which a live route that
 * opens per connection and per snapshot of 10,000 candidates cannot afford.
 */
export async function findWatchedExam(options: {
  examId: string;
  principal: StaffPrincipal | ApiTokenPrincipal;
}): Promise<WatchedExam | null> {
  const { examId, principal } = options;
  const isAdmin = principal.kind === "api-token" || principal.role === "admin";
  const staffUserId = principal.kind === "staff" ? principal.userId : null;
  const rows = await queryRows<WatchedExam>(sql`
    SELECT e.id::text AS id, e.title
    FROM exams e
    WHERE e.id = ${examId}::uuid
      AND (${isAdmin}::boolean
           OR EXISTS (SELECT 1 FROM exam_proctors p WHERE p.exam_id = e.id AND p.staff_user_id = ${staffUserId}::uuid))`);
  return rows[0] ?? null;
}
