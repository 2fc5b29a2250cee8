import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { QuestionType } from "@/lib/shared/schemas/exams";
import type { GradeMarker } from "@/lib/shared/schemas/grading";
import {
  RESULT_CAUSES,
  RESULT_SOURCES,
  type ResultCauseKind,
  type ResultSourceKind,
  type StaffAttemptResult,
  type StaffResultQuestion,
  type StaffResultVersion,
} from "@/lib/shared/schemas/results";
import type { ResultQuestion } from "@/lib/shared/scoring/paper-result";
import { unitsToPoints } from "@/lib/shared/scoring/score-units";

import { queryRows, sql } from "../db/sql";

type AttemptRow = {
  attempt_id: string;
  exam_id: string;
  status: "in_progress" | "submitted";
  title: string;
  released_at: Date | null;
  results_detail: string;
  second_marking: boolean;
  enrollment_id: string;
  name: string;
  email: string;
  submitted_at: Date | null;
  current_version: number | null;
  is_up_to_date: boolean | null;
};

type VersionRow = {
  version: number;
  cause: string;
  actor_type: string;
  actor_label: string;
  reason: string;
  created_at: Date;
  score_units: string;
  max_units: string;
  pending: number;
  questions: ResultQuestion[] | null;
};

const MARKER_ORDER: GradeMarker[] = ["first", "second", "final"];

const isCause = (cause: string): cause is ResultCauseKind => (RESULT_CAUSES as readonly string[]).includes(cause);
const isSource = (source: string): source is ResultSourceKind => (RESULT_SOURCES as readonly string[]).includes(source);

/**
 * `GET /api/admin/attempts/{attemptId}/result` (admin): one paper's current result with the marks and late-answer
 * decisions behind it, and every version of it newest first (result_versions is append-only, so an earlier
 * version reads exactly as it was written: its total, its per-question points, who caused it and why). Questions
 * are in the exam's order, numbered as staff number them. An unknown attempt is 404; an attempt not submitted yet
 * has no current result and no versions.
 */
export async function readStaffResult(options: { attemptId: string }): Promise<StaffAttemptResult> {
  const { attemptId } = options;
  const [attempt] = await queryRows<AttemptRow>(
    sql`SELECT a.id::text AS attempt_id, a.exam_id::text AS exam_id, a.status::text AS status, e.title,
               e.results_released_at AS released_at, e.results_detail, e.second_marking,
               en.id::text AS enrollment_id, en.name, en.email, s.submitted_at,
               r.version AS current_version, (r.submission_id = s.id) AS is_up_to_date
        FROM attempts a
        JOIN exams e ON e.id = a.exam_id
        JOIN enrollments en ON en.id = a.enrollment_id
        LEFT JOIN submissions s ON s.attempt_id = a.id
        LEFT JOIN results r ON r.attempt_id = a.id
        WHERE a.id = ${attemptId}::uuid`,
  );
  if (!attempt) throw new AppError("NOT_FOUND", "No such attempt.");

  const [questions, versionRows, marks, lateDecisions] = await Promise.all([
    queryRows<{ id: string; position: number; type: QuestionType }>(
      sql`SELECT id::text AS id, position, type::text AS type FROM questions
          WHERE exam_id = ${attempt.exam_id}::uuid ORDER BY position`,
    ),
    queryRows<VersionRow>(
      sql`SELECT version, cause, actor_type, actor_label, reason, created_at, score_units::text AS score_units,
                 max_units::text AS max_units, pending, questions
          FROM result_versions WHERE attempt_id = ${attemptId}::uuid ORDER BY version DESC`,
    ),
    queryRows<{
      question_id: string;
      marker: GradeMarker;
      units: string;
      actor_label: string;
      comment: string;
      updated_at: Date;
    }>(
      sql`SELECT question_id::text AS question_id, marker, units::text AS units, actor_label, comment, updated_at
          FROM grades WHERE attempt_id = ${attemptId}::uuid`,
    ),
    queryRows<{ late_answer_id: string; question_id: string; actor_label: string; reason: string; decided_at: Date }>(
      sql`SELECT d.late_answer_id::text AS late_answer_id, l.question_id::text AS question_id, d.actor_label,
                 d.reason, d.decided_at
          FROM late_answer_decisions d JOIN late_answers l ON l.id = d.late_answer_id
          WHERE d.attempt_id = ${attemptId}::uuid AND d.decision = 'accepted'`,
    ),
  ]);

  const questionOf = new Map(questions.map((question) => [question.id, question]));
  const toQuestions = (entries: ResultQuestion[] | null): StaffResultQuestion[] =>
    (entries ?? [])
      .flatMap((entry) => {
        const question = questionOf.get(entry.questionId);
        if (!question) return [];
        return [
          {
            questionId: entry.questionId,
            position: question.position,
            type: question.type,
            points: entry.units === null ? null : unitsToPoints(entry.units),
            maxPoints: unitsToPoints(entry.maxUnits),
            source: isSource(entry.source) ? entry.source : "pending",
            reason: entry.reason,
            lateAnswerId: entry.lateAnswerId,
          },
        ];
      })
      .sort((a, b) => a.position - b.position);
  const versions: StaffResultVersion[] = versionRows.map((row) => ({
    version: row.version,
    cause: isCause(row.cause) ? row.cause : "regraded",
    actorType: row.actor_type === "staff" || row.actor_type === "api-token" ? row.actor_type : "system",
    by: row.actor_label,
    reason: row.reason,
    at: row.created_at.toISOString(),
    score: unitsToPoints(Number(row.score_units)),
    maxScore: unitsToPoints(Number(row.max_units)),
    pending: row.pending,
    questions: toQuestions(row.questions),
  }));
  const current = versions.find((version) => version.version === attempt.current_version) ?? null;

  const lateOf = new Map(lateDecisions.map((decision) => [decision.late_answer_id, decision]));
  const decisions: StaffAttemptResult["decisions"] = questions.map((question) => {
    const scoredLate = current?.questions.find((entry) => entry.questionId === question.id)?.lateAnswerId ?? null;
    const late = scoredLate ? lateOf.get(scoredLate) : undefined;
    return {
      questionId: question.id,
      marks: marks
        .filter((mark) => mark.question_id === question.id)
        .sort((a, b) => MARKER_ORDER.indexOf(a.marker) - MARKER_ORDER.indexOf(b.marker))
        .map((mark) => ({
          marker: mark.marker,
          points: unitsToPoints(Number(mark.units)),
          by: mark.actor_label,
          comment: mark.comment,
          at: mark.updated_at.toISOString(),
        })),
      lateAnswer: late
        ? {
            lateAnswerId: late.late_answer_id,
            by: late.actor_label,
            reason: late.reason,
            at: late.decided_at.toISOString(),
          }
        : null,
    };
  });

  return {
    attemptId: attempt.attempt_id,
    examId: attempt.exam_id,
    examTitle: attempt.title,
    candidate: { enrollmentId: attempt.enrollment_id, name: attempt.name, email: attempt.email },
    status: attempt.status,
    submittedAt: attempt.submitted_at?.toISOString() ?? null,
    releasedAt: attempt.released_at?.toISOString() ?? null,
    resultsDetail: attempt.results_detail === "total" ? "total" : "per_question",
    secondMarking: attempt.second_marking,
    current,
    isUpToDate: attempt.status === "submitted" && attempt.is_up_to_date === true,
    decisions,
    versions,
  };
}
