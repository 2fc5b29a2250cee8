import "server-only";

import { CSV_BYTE_ORDER_MARK, csvLines } from "@/lib/shared/csv-cell";

import { queryRows, sql } from "../db/sql";

/** Submitted papers read per query while the file streams: memory stays flat for any number of candidates. */
const CHUNK = 500;

type QuestionRow = { id: string; position: number; type: string; options: { id: string; label: string }[] | null };

type AnswerRow = {
  attempt_id: string;
  name: string;
  email: string;
  question_id: string;
  value: unknown;
  version: number;
  saved_at: Date;
};

const HEADER = ["name", "email", "attempt_id", "position", "question_id", "type", "answer", "version", "answered_at"];

/**
 * `GET /api/admin/exams/{examId}/answers.csv`: every answer of every submitted paper as it was frozen, one row per
 * answer, by attempt and then question position — `name`, `email`, `attempt_id`, `position`, `question_id`,
 * `type`, `answer` (readable: the labels of the chosen options joined with "; ", the text, the number),
 * `version` (the edit's Lamport clock) and `answered_at` (when the server stored it, ISO 8601 UTC). A question
 * left unanswered has no row. Same file conventions as results.csv (csv-cell.ts: BOM, CRLF, inert formulas),
 * streamed by keyset. Null when there is no such exam.
 */
export async function exportAnswersCsv(examId: string): Promise<ReadableStream<Uint8Array> | null> {
  const [exam] = await queryRows<{ id: string }>(sql`SELECT id::text AS id FROM exams WHERE id = ${examId}::uuid`);
  if (!exam) return null;
  const questions = await queryRows<QuestionRow>(
    sql`SELECT id::text AS id, position, type::text AS type, options
        FROM questions WHERE exam_id = ${examId}::uuid ORDER BY position`,
  );
  const byId = new Map(questions.map((question) => [question.id, question]));

  const encoder = new TextEncoder();
  let after = "00000000-0000-0000-0000-000000000000";
  let isStarted = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!isStarted) {
        isStarted = true;
        controller.enqueue(encoder.encode(`${CSV_BYTE_ORDER_MARK}${csvLines([HEADER])}`));
        return;
      }
      const attempts = await queryRows<{ id: string }>(
        sql`SELECT id::text AS id FROM attempts
            WHERE exam_id = ${examId}::uuid AND status = 'submitted' AND id > ${after}::uuid
            ORDER BY id LIMIT ${CHUNK}`,
      );
      if (attempts.length > 0) {
        const ids = attempts.map((attempt) => attempt.id);
        const answers = await queryRows<AnswerRow>(
          sql`SELECT an.attempt_id::text AS attempt_id, e.name, e.email, an.question_id::text AS question_id,
                     an.value, an.version, an.saved_at
              FROM answers an
              JOIN attempts a ON a.id = an.attempt_id
              JOIN enrollments e ON e.id = a.enrollment_id
              JOIN questions q ON q.id = an.question_id
              WHERE an.attempt_id = ANY(${ids}::uuid[])
              ORDER BY an.attempt_id, q.position`,
        );
        const rows = answers.flatMap((answer) => {
          const question = byId.get(answer.question_id);
          if (!question) return [];
          return [
            [
              answer.name,
              answer.email,
              answer.attempt_id,
              String(question.position),
              question.id,
              question.type,
              readableAnswer(question, answer.value),
              String(answer.version),
              answer.saved_at.toISOString(),
            ],
          ];
        });
        if (rows.length > 0) controller.enqueue(encoder.encode(csvLines(rows)));
        after = attempts[attempts.length - 1]!.id;
      }
      if (attempts.length < CHUNK) controller.close();
    },
  });
}

/** An answer as a person reads it: choices by their labels (an unknown option by its id), text and numbers as is. */
function readableAnswer(question: QuestionRow, value: unknown): string {
  const labels = new Map((question.options ?? []).map((option) => [option.id, option.label]));
  if (question.type === "single_choice" || question.type === "multiple_choice") {
    const chosen = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];
    return chosen.map((id) => labels.get(String(id)) ?? String(id)).join("; ");
  }
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value : String(value);
}
