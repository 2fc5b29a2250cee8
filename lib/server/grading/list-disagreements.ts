import "server-only";

import type { GradeView, GradingDisagreements } from "@/lib/shared/schemas/grading";
import { unitsToPoints } from "@/lib/shared/scoring/score-units";

import { queryRows, sql } from "../db/sql";
import { candidateCode } from "./candidate-code";
import { shortPrompt } from "./read-grading-overview";

type MarkColumns = { units: string; comment: string; actor_label: string; revision: number; updated_at: Date };

type DisagreementRow = {
  question_id: string;
  position: number;
  prompt: string;
  points: number;
  attempt_id: string;
  enrollment_id: string;
  name: string;
  first: MarkColumns;
  second: MarkColumns;
};

function view(mark: MarkColumns): GradeView {
  return {
    points: unitsToPoints(Number(mark.units)),
    comment: mark.comment,
    by: mark.actor_label,
    revision: mark.revision,
    updatedAt: new Date(mark.updated_at).toISOString(),
  };
}

/**
 * Every (question, paper) of the exam whose first and second marks differ and that no final mark settles
 * (docs/results.md, "Grading"), with both marks, in question order and then candidate-code order. Blind like the
 * queue: names only after the results are released. Null when there is no such exam.
 */
export async function listDisagreements(options: { examId: string }): Promise<GradingDisagreements | null> {
  const { examId } = options;
  const [exam] = await queryRows<{ released: boolean; second_marking: boolean }>(
    sql`SELECT results_released_at IS NOT NULL AS released, second_marking FROM exams WHERE id = ${examId}::uuid`,
  );
  if (!exam) return null;
  // Without double marking either mark decides (paper-result.ts): nothing waits to be settled.
  if (!exam.second_marking) return { examId, secondMarking: false, released: exam.released, items: [] };
  const rows = await queryRows<DisagreementRow>(
    sql`SELECT q.id::text AS question_id, q.position, q.prompt, q.points, a.id::text AS attempt_id,
               a.enrollment_id::text AS enrollment_id, en.name,
               jsonb_build_object('units', f.units::text, 'comment', f.comment, 'actor_label', f.actor_label,
                                  'revision', f.revision, 'updated_at', f.updated_at) AS first,
               jsonb_build_object('units', s.units::text, 'comment', s.comment, 'actor_label', s.actor_label,
                                  'revision', s.revision, 'updated_at', s.updated_at) AS second
        FROM grades f
        JOIN grades s ON s.attempt_id = f.attempt_id AND s.question_id = f.question_id AND s.marker = 'second'
        JOIN attempts a ON a.id = f.attempt_id
        JOIN enrollments en ON en.id = a.enrollment_id
        JOIN questions q ON q.id = f.question_id
        WHERE f.marker = 'first' AND f.units <> s.units
          AND a.exam_id = ${examId}::uuid AND a.status = 'submitted'
          AND NOT EXISTS (SELECT 1 FROM grades x
                          WHERE x.attempt_id = f.attempt_id AND x.question_id = f.question_id AND x.marker = 'final')
        ORDER BY q.position`,
  );
  const items = rows.map((row) => ({
    questionId: row.question_id,
    position: row.position,
    prompt: shortPrompt(row.prompt),
    points: row.points,
    attemptId: row.attempt_id,
    candidateCode: candidateCode(row.enrollment_id),
    candidateName: exam.released ? row.name : null,
    first: view(row.first),
    second: view(row.second),
  }));
  // Codes are computed here, so the order within a question is too (stable, as the queue's).
  items.sort((a, b) =>
    a.position !== b.position ? a.position - b.position : a.candidateCode < b.candidateCode ? -1 : 1,
  );
  return { examId, secondMarking: true, released: exam.released, items };
}
