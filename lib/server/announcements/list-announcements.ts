import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { StaffAnnouncement } from "@/lib/shared/schemas/announcements";

import { queryRows, sql } from "../db/sql";
import type { StaffCaller } from "../proctor/find-candidate-for-staff";
import { findWatchedExam } from "../proctor/find-watched-exam";

type Row = {
  id: string;
  message: string;
  enrollment_ids: string[] | null;
  sent_at: Date;
  actor_label: string;
  recipients: number;
  received_candidates: number;
  received_devices: number;
};

/**
 * The exam's announcements for its dashboard, newest first, each with how many candidates it is for (started or
 * not, as enrolled now) and how many of them, and of their devices, have stored it (announcement_receipts).
 * An exam the caller may not watch is a 404.
 */
export async function listAnnouncements(options: {
  examId: string;
  caller: StaffCaller;
}): Promise<{ announcements: StaffAnnouncement[] }> {
  if (!(await findWatchedExam({ examId: options.examId, principal: options.caller })))
    throw new AppError("NOT_FOUND", "No such exam.");
  const rows = await queryRows<Row>(sql`
    SELECT a.id::text AS id, a.message, a.enrollment_ids::text[] AS enrollment_ids, a.sent_at, a.actor_label,
           (SELECT count(*)::int FROM enrollments e
             WHERE e.exam_id = a.exam_id AND (a.enrollment_ids IS NULL OR e.id = ANY(a.enrollment_ids))) AS recipients,
           (SELECT count(DISTINCT r.attempt_id)::int FROM announcement_receipts r
             WHERE r.announcement_id = a.id) AS received_candidates,
           (SELECT count(*)::int FROM announcement_receipts r WHERE r.announcement_id = a.id) AS received_devices
    FROM announcements a
    WHERE a.exam_id = ${options.examId}::uuid
    ORDER BY a.sent_at DESC, a.id DESC`);
  return {
    announcements: rows.map((row) => ({
      id: row.id,
      message: row.message,
      sentAt: row.sent_at.toISOString(),
      enrollmentIds: row.enrollment_ids,
      sentBy: row.actor_label,
      recipients: row.recipients,
      receivedCandidates: row.received_candidates,
      receivedDevices: row.received_devices,
    })),
  };
}
