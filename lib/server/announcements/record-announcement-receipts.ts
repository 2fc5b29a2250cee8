import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { AnnouncementReceiptsBody } from "@/lib/shared/schemas/announcements";

import type { CandidatePrincipal } from "../auth/sessions";
import { queryRows, sql } from "../db/sql";
import { publishExamChange } from "../live/exam-bus";

/**
 * A candidate's device has stored these announcements (docs/sync-protocol.md, "Announcements").
 *
 * 1. The attempt must be the caller's own (another id is a 404).
 * 2. One statement inserts a receipt per (announcement, attempt, device) for the ids this candidate may read;
 *    ON CONFLICT DO NOTHING makes a repeated acknowledgement (a retry, a second tab) a no-op. Ids the
 *    candidate may not read are ignored, not refused: the device acknowledges what the server itself sent
 *    it, so such an id can only be a forgery, and a 422 would leave an honest client's retry stuck.
 * 3. When a receipt is new, the exam's dashboards hear of it (their "received by" counts).
 */
export async function recordAnnouncementReceipts(options: {
  attemptId: string;
  candidate: CandidatePrincipal;
  receipt: AnnouncementReceiptsBody;
}): Promise<void> {
  const { attemptId, candidate, receipt } = options;
  const ids = [...new Set(receipt.ids.map((id) => id.toLowerCase()))];
  // 1. and 2. in one round trip: the CTE finds the attempt under the caller's enrollment.
  const rows = await queryRows<{ exam_id: string; inserted: number }>(sql`
    WITH attempt AS (
      SELECT id, exam_id, enrollment_id FROM attempts
      WHERE id = ${attemptId}::uuid AND enrollment_id = ${candidate.enrollmentId}::uuid
    ), inserted AS (
      INSERT INTO announcement_receipts (announcement_id, attempt_id, device_id)
      SELECT a.id, t.id, ${receipt.deviceId}
      FROM attempt t JOIN announcements a ON a.exam_id = t.exam_id
      WHERE a.id = ANY(${ids}::uuid[]) AND (a.enrollment_ids IS NULL OR t.enrollment_id = ANY(a.enrollment_ids))
      ON CONFLICT DO NOTHING
      RETURNING 1
    )
    SELECT exam_id::text AS exam_id, (SELECT count(*)::int FROM inserted) AS inserted FROM attempt`);
  const attempt = rows[0];
  if (!attempt) throw new AppError("NOT_FOUND", "No such attempt.");
  // 3.
  if (attempt.inserted > 0) publishExamChange(attempt.exam_id, candidate.enrollmentId, "announcement_received");
}
