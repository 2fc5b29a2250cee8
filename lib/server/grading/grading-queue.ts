import "server-only";

import type { GradeMarker, GradeView, GradingQueue, GradingQueueItem } from "@/lib/shared/schemas/grading";
import type { ResultQuestion } from "@/lib/shared/scoring/paper-result";
import { unitsToPoints } from "@/lib/shared/scoring/score-units";

import { queryRows, sql } from "../db/sql";
import { candidateCode } from "./candidate-code";

type QueueRow = {
  attempt_id: string;
  enrollment_id: string;
  name: string;
  frozen_value: GradingQueueItem["value"];
  late_id: string | null;
  late_value: GradingQueueItem["value"];
  result_questions: ResultQuestion[] | null;
};

type GradeRow = {
  attempt_id: string;
  marker: GradeMarker;
  units: string;
  comment: string;
  actor_label: string;
  revision: number;
  updated_at: Date;
};

/**
 * A question's grading queue (docs/results.md, "Grading"): every submitted paper of the exam, in candidate-code
 * order (stable, and not the order names or submissions came in), with the answer that is scored (an accepted late
 * answer's value in place of the frozen one), how the result decides it now, and the marks `marker` may see: the
 * first and second markers each see only their own (they mark independently); `final` (an admin settling) sees all.
 * Names stay hidden until the exam's results are released. Null when the exam has no such question.
 */
export async function readGradingQueue(options: {
  examId: string;
  questionId: string;
  marker: GradeMarker;
}): Promise<GradingQueue | null> {
  const [question] = await queryRows<{
    id: string;
    position: number;
    type: string;
    prompt: string;
    rubric: string;
    points: number;
    second_marking: boolean;
    released: boolean;
  }>(
    sql`SELECT q.id::text AS id, q.position, q.type::text AS type, q.prompt, q.rubric, q.points, e.second_marking,
               e.results_released_at IS NOT NULL AS released
        FROM questions q JOIN exams e ON e.id = q.exam_id
        WHERE q.id = ${options.questionId}::uuid AND q.exam_id = ${options.examId}::uuid`,
  );
  if (!question) return null;

  const rows = await queryRows<QueueRow>(
    sql`SELECT a.id::text AS attempt_id, a.enrollment_id::text AS enrollment_id, en.name,
               ans.value AS frozen_value, late.id AS late_id, late.value AS late_value, r.questions AS result_questions
        FROM attempts a
        JOIN enrollments en ON en.id = a.enrollment_id
        LEFT JOIN answers ans ON ans.attempt_id = a.id AND ans.question_id = ${options.questionId}::uuid
        LEFT JOIN LATERAL (
          SELECT l.id::text AS id, l.value FROM late_answers l
          JOIN late_answer_decisions d ON d.late_answer_id = l.id AND d.decision = 'accepted'
          WHERE l.attempt_id = a.id AND l.question_id = ${options.questionId}::uuid
          ORDER BY l.version DESC, l.device_id COLLATE "C" DESC LIMIT 1
        ) late ON true
        LEFT JOIN results r ON r.attempt_id = a.id
        WHERE a.exam_id = ${options.examId}::uuid AND a.status = 'submitted'`,
  );
  const grades = await queryRows<GradeRow>(
    sql`SELECT g.attempt_id::text AS attempt_id, g.marker, g.units::text AS units, g.comment, g.actor_label, g.revision,
               g.updated_at
        FROM grades g JOIN attempts a ON a.id = g.attempt_id
        WHERE g.question_id = ${options.questionId}::uuid AND a.exam_id = ${options.examId}::uuid`,
  );
  const gradesOf = new Map<string, Partial<Record<GradeMarker, GradeView>>>();
  for (const grade of grades) {
    if (options.marker !== "final" && grade.marker !== options.marker) continue;
    const entry = gradesOf.get(grade.attempt_id) ?? {};
    entry[grade.marker] = {
      points: unitsToPoints(Number(grade.units)),
      comment: grade.comment,
      by: grade.actor_label,
      revision: grade.revision,
      updatedAt: grade.updated_at.toISOString(),
    };
    gradesOf.set(grade.attempt_id, entry);
  }

  const items: GradingQueueItem[] = rows.map((row) => {
    const decided = row.result_questions?.find((entry) => entry.questionId === question.id);
    // With double marking a marker must not learn the other's mark through the result either.
    const isHidden = question.second_marking && options.marker !== "final" && decided?.source === "grader";
    return {
      attemptId: row.attempt_id,
      candidateCode: candidateCode(row.enrollment_id),
      candidateName: question.released ? row.name : null,
      value: row.late_id ? row.late_value : (row.frozen_value ?? null),
      lateAnswerId: row.late_id,
      source: isHidden ? "pending" : (decided?.source ?? "pending"),
      reason: isHidden ? "awaiting_second" : (decided?.reason ?? "not_scored_yet"),
      points: isHidden || decided?.units === null || decided === undefined ? null : unitsToPoints(decided.units),
      grades: gradesOf.get(row.attempt_id) ?? {},
    };
  });
  items.sort((a, b) => (a.candidateCode < b.candidateCode ? -1 : a.candidateCode > b.candidateCode ? 1 : 0));
  return {
    examId: options.examId,
    question: {
      id: question.id,
      position: question.position,
      type: question.type,
      prompt: question.prompt,
      rubric: question.rubric,
      points: question.points,
    },
    marker: options.marker,
    secondMarking: question.second_marking,
    items,
  };
}
