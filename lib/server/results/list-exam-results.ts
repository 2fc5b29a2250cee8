import "server-only";

import type { AppLocale } from "@/lib/shared/i18n/locales";
import type { CandidateResultRow, ExamResultsView } from "@/lib/shared/schemas/statistics";
import { pointsToUnits, unitsToPoints } from "@/lib/shared/scoring/score-units";

import { queryRows, sql } from "../db/sql";
import { byName } from "../enrollments/list-candidates";

type Row = {
  enrollment_id: string;
  name: string;
  email: string;
  attempt_id: string | null;
  status: "in_progress" | "submitted" | null;
  score_units: string | null;
  pending: number | null;
};

/**
 * `GET /api/admin/exams/{examId}/results`: whether the results are released, and each enrolled candidate in
 * the reader's order by name (then email) with their status and current score (the results page's table; the same figures as
 * results.csv). A submitted paper not scored yet has a null score and is not graded. Null when there is no such
 * exam.
 */
export async function listExamResults(examId: string, locale: AppLocale): Promise<ExamResultsView | null> {
  const [exam] = await queryRows<{ released_at: Date | null }>(
    sql`SELECT results_released_at AS released_at FROM exams WHERE id = ${examId}::uuid`,
  );
  if (!exam) return null;
  const questions = await queryRows<{ points: number; ungraded: boolean }>(
    sql`SELECT points, ungraded FROM questions WHERE exam_id = ${examId}::uuid`,
  );
  const rows = await queryRows<Row>(
    sql`SELECT e.id::text AS enrollment_id, e.name, e.email, a.id::text AS attempt_id, a.status::text AS status,
               r.score_units::text AS score_units, r.pending
        FROM enrollments e
        LEFT JOIN attempts a ON a.enrollment_id = e.id
        LEFT JOIN submissions s ON s.attempt_id = a.id
        LEFT JOIN results r ON r.attempt_id = a.id AND r.submission_id = s.id AND r.version > 0
        WHERE e.exam_id = ${examId}::uuid
`,
  );
  return {
    examId,
    releasedAt: exam.released_at?.toISOString() ?? null,
    maxScore: unitsToPoints(
      questions.reduce((sum, question) => sum + (question.ungraded ? 0 : pointsToUnits(question.points)), 0),
    ),
    candidates: byName(
      rows.map((row) => ({ ...row, id: row.enrollment_id })),
      locale,
    ).map((row): CandidateResultRow => {
      const isScored = row.status === "submitted" && row.score_units !== null;
      return {
        enrollmentId: row.enrollment_id,
        name: row.name,
        email: row.email,
        attemptId: row.attempt_id,
        status: row.status ?? "not_started",
        score: isScored ? unitsToPoints(Number(row.score_units)) : null,
        graded: isScored && row.pending === 0,
      };
    }),
  };
}
