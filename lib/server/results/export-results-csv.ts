import "server-only";

import { CSV_BYTE_ORDER_MARK, csvLines } from "@/lib/shared/csv-cell";
import type { AppLocale } from "@/lib/shared/i18n/locales";
import { formatUnits, pointsToUnits } from "@/lib/shared/scoring/score-units";
import type { ResultQuestion } from "@/lib/shared/scoring/paper-result";

import { queryRows, sql } from "../db/sql";
import { byName } from "../enrollments/list-candidates";

/** Candidates read per query while the file streams: memory stays flat for 10,000 candidates and more. */
const CHUNK = 1000;

type Row = {
  id: string;
  name: string;
  email: string;
  external_id: string | null;
  status: "in_progress" | "submitted" | null;
  submitted_at: Date | null;
  score_units: string | null;
  pending: number | null;
  questions: ResultQuestion[] | null;
};

/**
 * `GET /api/admin/exams/{examId}/results.csv`: one row per enrolled candidate, by name in the reader's order (pinyin
 * for Chinese; lib/shared/i18n/name-order.ts), then email — `name`, `email`, `external_id` (the student number,
 * empty when none),
 * `status` (not_started / in_progress / submitted), `submitted_at` (ISO 8601, UTC), `score`, `max_score`, `graded`
 * (true when no answer waits for a person), then `q<position>` per question with the points. Points are exact
 * decimals (at most four places). A submitted paper not scored yet (its job is still queued, a second or so) has
 * an empty score and `graded` false; so has a candidate who has not submitted. UTF-8 with a byte order mark, CRLF,
 * formula-like cells made inert (csv-cell.ts), streamed a thousand candidates at a time: only the names, emails and
 * ids are read whole first (to put them in order; some 100 bytes a candidate), the rows with their papers' marks a
 * chunk at a time. Null when there is no such exam.
 */
export async function exportResultsCsv(examId: string, locale: AppLocale): Promise<ReadableStream<Uint8Array> | null> {
  const [exam] = await queryRows<{ id: string }>(sql`SELECT id::text AS id FROM exams WHERE id = ${examId}::uuid`);
  if (!exam) return null;
  const questions = await queryRows<{ id: string; position: number; points: number; ungraded: boolean }>(
    sql`SELECT id::text AS id, position, points, ungraded FROM questions WHERE exam_id = ${examId}::uuid ORDER BY position`,
  );
  const maxScore = formatUnits(
    questions.reduce((sum, question) => sum + (question.ungraded ? 0 : pointsToUnits(question.points)), 0),
  );
  const header = ["name", "email", "external_id", "status", "submitted_at", "score", "max_score", "graded"].concat(
    questions.map((question) => `q${question.position}`),
  );

  const order = byName(
    await queryRows<{ id: string; name: string; email: string }>(
      sql`SELECT id::text AS id, name, email FROM enrollments WHERE exam_id = ${examId}::uuid`,
    ),
    locale,
  ).map((enrollment) => enrollment.id);

  const encoder = new TextEncoder();
  let next = 0;
  let isStarted = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!isStarted) {
        isStarted = true;
        controller.enqueue(encoder.encode(`${CSV_BYTE_ORDER_MARK}${csvLines([header])}`));
        return;
      }
      const ids = order.slice(next, next + CHUNK);
      next += ids.length;
      const rows = await queryRows<Row>(
        sql`SELECT e.id::text AS id, e.name, e.email, e.external_id, a.status::text AS status, s.submitted_at,
                   r.score_units::text AS score_units, r.pending, r.questions
            FROM enrollments e
            LEFT JOIN attempts a ON a.enrollment_id = e.id
            LEFT JOIN submissions s ON s.attempt_id = a.id
            LEFT JOIN results r ON r.attempt_id = a.id AND r.submission_id = s.id
            WHERE e.exam_id = ${examId}::uuid AND e.id = ANY(${ids}::uuid[])`,
      );
      // In the chunk's order; a candidate removed since the order was read is left out.
      const byId = new Map(rows.map((row) => [row.id, row]));
      const inOrder = ids.flatMap((id) => byId.get(id) ?? []);
      if (inOrder.length > 0)
        controller.enqueue(encoder.encode(csvLines(inOrder.map((row) => csvRow(row, questions, maxScore)))));
      if (next >= order.length) controller.close();
    },
  });
}

function csvRow(row: Row, questions: readonly { id: string }[], maxScore: string): string[] {
  const isSubmitted = row.status === "submitted";
  const isScored = isSubmitted && row.score_units !== null;
  const byQuestion = new Map((row.questions ?? []).map((question) => [question.questionId, question]));
  return [
    row.name,
    row.email,
    row.external_id ?? "",
    row.status ?? "not_started",
    isSubmitted && row.submitted_at ? row.submitted_at.toISOString() : "",
    isScored ? formatUnits(Number(row.score_units)) : "",
    maxScore,
    String(isScored && row.pending === 0),
    ...questions.map((question) => {
      const units = isScored ? byQuestion.get(question.id)?.units : null;
      return units === null || units === undefined ? "" : formatUnits(units);
    }),
  ];
}
