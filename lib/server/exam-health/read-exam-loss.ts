import "server-only";

import type { ApiTokenPrincipal, StaffPrincipal } from "../auth/sessions";
import { queryRows, sql } from "../db/sql";

export type ExamLoss = {
  examId: string;
  submissions: number;
  /** Submissions whose client sent a digest that differs from the server's digest of the frozen paper. */
  digestMismatches: number;
  /** Attempts with at least one answer kept in late_answers. */
  attemptsWithLateAnswers: number;
  /** Submissions with either (a digest mismatch, late answers, or both): each counts once in the loss rate. */
  affectedSubmissions: number;
};

/**
 * Who is asking: a proctor sees only the exams assigned to them, an admin or the admin token every exam.
 * `operators` is the metrics scrape's deliberately unscoped view (numbers only, no names), and it only
 * counts published exams.
 */
export type LossViewer = StaffPrincipal | ApiTokenPrincipal | "operators";

/**
 * The loss figures of the given exams from Postgres, in one statement, for the exams the viewer may see:
 * an exam missing from the answer does not exist or is not the viewer's (the caller answers 404).
 */
export async function readExamLoss(options: {
  examIds: readonly string[];
  viewer: LossViewer;
}): Promise<Map<string, ExamLoss>> {
  const { examIds, viewer } = options;
  if (examIds.length === 0) return new Map();
  const proctorId =
    viewer !== "operators" && viewer.kind === "staff" && viewer.role === "proctor" ? viewer.userId : null;
  const publishedOnly = viewer === "operators";
  // Authorization lives in the WHERE: a proctor's unassigned exam yields no row, like a missing one.
  const rows = await queryRows<{
    exam_id: string;
    submissions: number;
    digest_mismatches: number;
    attempts_with_late_answers: number;
    affected_submissions: number;
  }>(sql`
    SELECT e.id::text AS exam_id,
      (SELECT count(*)::int FROM submissions s JOIN attempts a ON a.id = s.attempt_id WHERE a.exam_id = e.id) AS submissions,
      (SELECT count(*)::int FROM submissions s JOIN attempts a ON a.id = s.attempt_id
        WHERE a.exam_id = e.id AND s.client_digest IS NOT NULL AND s.client_digest <> s.digest) AS digest_mismatches,
      (SELECT count(DISTINCT l.attempt_id)::int FROM late_answers l JOIN attempts a ON a.id = l.attempt_id
        WHERE a.exam_id = e.id) AS attempts_with_late_answers,
      (SELECT count(*)::int FROM submissions s JOIN attempts a ON a.id = s.attempt_id
        WHERE a.exam_id = e.id
          AND ((s.client_digest IS NOT NULL AND s.client_digest <> s.digest)
               OR EXISTS (SELECT 1 FROM late_answers l WHERE l.attempt_id = s.attempt_id))) AS affected_submissions
    FROM exams e
    WHERE e.id = ANY(${[...examIds]}::uuid[])
      AND (${proctorId}::uuid IS NULL
        OR EXISTS (SELECT 1 FROM exam_proctors p WHERE p.exam_id = e.id AND p.staff_user_id = ${proctorId}::uuid))
      AND (NOT ${publishedOnly}::boolean OR e.status = 'published')`);
  return new Map(
    rows.map((row) => [
      row.exam_id,
      {
        examId: row.exam_id,
        submissions: row.submissions,
        digestMismatches: row.digest_mismatches,
        attemptsWithLateAnswers: row.attempts_with_late_answers,
        affectedSubmissions: row.affected_submissions,
      },
    ]),
  );
}
