import "server-only";

import type { QuestionType } from "@/lib/shared/schemas/exams";
import type { ExamStatisticsView } from "@/lib/shared/schemas/statistics";
import { pointsToUnits, UNITS_PER_POINT, unitsToPoints } from "@/lib/shared/scoring/score-units";
import type { ResultQuestion } from "@/lib/shared/scoring/paper-result";
import {
  examStatistics,
  histogram,
  itemStatistics,
  type ItemInput,
  type ScoredPaper,
} from "@/lib/shared/statistics/item-statistics";

import { queryRows, sql } from "../db/sql";

/** Bins of the histogram of totals. */
const HISTOGRAM_BINS = 10;

type QuestionRow = {
  id: string;
  position: number;
  type: QuestionType;
  points: number;
  ungraded: boolean;
  options: { id: string; label: string }[] | null;
};

/**
 * The statistics of an exam (docs/results.md, "Statistics") over its scored papers: each submitted paper whose
 * current result is computed (a paper still queued joins a second later). Per question the figures of
 * item-statistics.ts, how many left it blank and, for choice questions, how often each option was chosen; per
 * exam the totals' figures, Cronbach's alpha and a histogram. The time from first to last edit of a question is
 * the server's: from the answer's first save to its last (`answers.first_saved_at`, `saved_at`), over the
 * answered papers where the first save is known (answers stored before that column existed are not). Null when
 * there is no such exam.
 */
function editTimeOf(row: { timed: number; median_edit_seconds: number | null } | undefined) {
  const median = row?.median_edit_seconds ?? null;
  return { known: row?.timed ?? 0, medianSeconds: median === null ? null : Math.round(median * 10) / 10 };
}

export async function readExamStatistics(examId: string): Promise<ExamStatisticsView | null> {
  const [exam] = await queryRows<{ submitted: number }>(
    sql`SELECT (SELECT count(*)::int FROM attempts WHERE exam_id = e.id AND status = 'submitted') AS submitted
        FROM exams e WHERE e.id = ${examId}::uuid`,
  );
  if (!exam) return null;
  const questions = await queryRows<QuestionRow>(
    sql`SELECT id::text AS id, position, type::text AS type, points, ungraded, options
        FROM questions WHERE exam_id = ${examId}::uuid ORDER BY position`,
  );
  // The current result of each submitted paper (a reopened paper's result of an earlier submission is stale).
  const results = await queryRows<{ score_units: string; pending: number; questions: ResultQuestion[] }>(
    sql`SELECT r.score_units::text AS score_units, r.pending, r.questions
        FROM results r
        JOIN attempts a ON a.id = r.attempt_id AND a.status = 'submitted'
        JOIN submissions s ON s.attempt_id = r.attempt_id AND s.id = r.submission_id
        WHERE r.exam_id = ${examId}::uuid AND r.version > 0`,
  );
  // Over the same papers, from the frozen answers: blanks as the scoring rules read them (score-answer.ts: no
  // answer, white-space text, no choice) and each chosen option.
  const answerCounts = await queryRows<{
    question_id: string;
    answered: number;
    timed: number;
    median_edit_seconds: number | null;
  }>(
    sql`SELECT q.id::text AS question_id, count(an.attempt_id)::int AS answered,
               count(an.first_saved_at)::int AS timed,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM an.saved_at - an.first_saved_at))
                 FILTER (WHERE an.first_saved_at IS NOT NULL)::float8 AS median_edit_seconds
        FROM questions q
        JOIN answers an ON an.question_id = q.id
        JOIN results r ON r.attempt_id = an.attempt_id AND r.version > 0
        JOIN attempts a ON a.id = r.attempt_id AND a.status = 'submitted'
        JOIN submissions s ON s.attempt_id = r.attempt_id AND s.id = r.submission_id
        WHERE q.exam_id = ${examId}::uuid
          AND CASE jsonb_typeof(an.value)
                WHEN 'string' THEN (an.value #>> '{}') !~ '^[[:space:]]*$'
                WHEN 'array' THEN jsonb_array_length(an.value) > 0
                WHEN 'number' THEN true
                ELSE false
              END
        GROUP BY q.id`,
  );
  const optionCounts = await queryRows<{ question_id: string; option_id: string; count: number }>(
    sql`SELECT q.id::text AS question_id, chosen.option_id, count(*)::int AS count
        FROM questions q
        JOIN answers an ON an.question_id = q.id
        JOIN results r ON r.attempt_id = an.attempt_id AND r.version > 0
        JOIN attempts a ON a.id = r.attempt_id AND a.status = 'submitted'
        JOIN submissions s ON s.attempt_id = r.attempt_id AND s.id = r.submission_id
        CROSS JOIN LATERAL jsonb_array_elements_text(
          CASE jsonb_typeof(an.value) WHEN 'array' THEN an.value WHEN 'string' THEN jsonb_build_array(an.value)
               ELSE '[]'::jsonb END) AS chosen(option_id)
        WHERE q.exam_id = ${examId}::uuid AND q.type IN ('single_choice', 'multiple_choice')
        GROUP BY q.id, chosen.option_id`,
  );

  const graded = questions.filter((question) => !question.ungraded);
  const items: ItemInput[] = graded.map((question) => ({ id: question.id, maxUnits: pointsToUnits(question.points) }));
  const maxUnits = items.reduce((sum, item) => sum + item.maxUnits, 0);
  const papers: ScoredPaper[] = results.map((result) => ({
    total: Number(result.score_units),
    items: new Map(result.questions.map((question) => [question.questionId, question.units])),
  }));
  const totals = examStatistics(items, papers);
  const answered = new Map(answerCounts.map((row) => [row.question_id, row.answered]));
  const editTimes = new Map(answerCounts.map((row) => [row.question_id, row]));
  const chosen = new Map(optionCounts.map((row) => [`${row.question_id}/${row.option_id}`, row.count]));
  // Descriptive figures are floating point (a mean of units need not be whole): divided, not formatted.
  const points = (units: number | null) => (units === null ? null : units / UNITS_PER_POINT);

  return {
    examId,
    submitted: exam.submitted,
    scored: results.length,
    waitingForPerson: results.filter((result) => result.pending > 0).length,
    maxScore: unitsToPoints(maxUnits),
    mean: points(totals.mean),
    median: points(totals.median),
    standardDeviation: points(totals.standardDeviation),
    cronbachAlpha: totals.cronbachAlpha,
    histogram: histogram(
      papers.map((paper) => paper.total),
      maxUnits,
      HISTOGRAM_BINS,
    ).map((bin) => ({
      from: bin.from / UNITS_PER_POINT,
      to: bin.to / UNITS_PER_POINT,
      count: bin.count,
    })),
    questions: questions.map((question) => {
      const maxItemUnits = question.ungraded ? 0 : pointsToUnits(question.points);
      const figures = itemStatistics({ id: question.id, maxUnits: maxItemUnits }, question.ungraded ? [] : papers);
      const isChoice = question.type === "single_choice" || question.type === "multiple_choice";
      return {
        questionId: question.id,
        position: question.position,
        type: question.type,
        points: unitsToPoints(maxItemUnits),
        ungraded: question.ungraded,
        decided: figures.count,
        facility: figures.facility,
        discrimination: figures.discrimination,
        distribution: figures.distribution.map((entry) => ({ points: unitsToPoints(entry.units), count: entry.count })),
        blank: results.length - (answered.get(question.id) ?? 0),
        editTime: editTimeOf(editTimes.get(question.id)),
        options: isChoice
          ? (question.options ?? []).map((option) => ({
              optionId: option.id,
              label: option.label,
              count: chosen.get(`${question.id}/${option.id}`) ?? 0,
            }))
          : null,
      };
    }),
  };
}
