import "server-only";

import type { CandidateAnnouncement } from "@/lib/shared/schemas/announcements";

import { queryRows, sql } from "../db/sql";

type Row = { id: string; message: string; sent_at: Date };

/**
 * The announcements one candidate may read, oldest first: those sent to every candidate of their exam and
 * those whose selection names their enrollment. Authorization is in the query (the enrollment's own exam
 * and id), so another candidate's selection never leaks. `announcementId` narrows it to one (the stream
 * reading back what the bus hinted at): an id not for this candidate reads as none.
 */
export async function findCandidateAnnouncements(options: {
  enrollmentId: string;
  announcementId?: string;
}): Promise<CandidateAnnouncement[]> {
  const one = options.announcementId ?? null;
  const rows = await queryRows<Row>(sql`
    SELECT a.id::text AS id, a.message, a.sent_at
    FROM enrollments e
    JOIN announcements a ON a.exam_id = e.exam_id
    WHERE e.id = ${options.enrollmentId}::uuid
      AND (a.enrollment_ids IS NULL OR e.id = ANY(a.enrollment_ids))
      AND (${one}::uuid IS NULL OR a.id = ${one}::uuid)
    ORDER BY a.sent_at, a.id`);
  return rows.map((row) => ({ id: row.id, message: row.message, sentAt: row.sent_at.toISOString() }));
}
