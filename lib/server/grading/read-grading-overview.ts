import "server-only";

import type { AnswerValue } from "@/lib/shared/schemas/attempts";
import type { ChoiceScoring, QuestionType } from "@/lib/shared/schemas/exams";
import type { GradeMarker, GradingOverview, GradingOverviewQuestion } from "@/lib/shared/schemas/grading";
import { scoreAnswer, type ScorableQuestion } from "@/lib/shared/scoring/score-answer";

import { queryRows, sql } from "../db/sql";

const PROMPT_LENGTH = 120;

type QuestionRow = {
  id: string;
  position: number;
  type: QuestionType;
  prompt: string;
  points: number;
  answer_key: string | string[] | number | null;
  tolerance: number | null;
  scoring: ChoiceScoring | null;
  exact_match: boolean;
  ungraded: boolean;
};

/** Whether some answer to the question could be left to a person by the rules (score-answer.ts). */
function mayNeedPerson(question: ScorableQuestion): boolean {
  if (question.ungraded) return false;
  return question.type === "essay" || question.type === "short_text" || question.answerKey === null;
}

/** A prompt's first words, white space folded, for a list. */
export function shortPrompt(prompt: string): string {
  const folded = prompt.replace(/\s+/g, " ").trim();
  const characters = [...folded];
  return characters.length <= PROMPT_LENGTH ? folded : `${characters.slice(0, PROMPT_LENGTH - 1).join("")}…`;
}

/**
 * The exam's grading at a glance (docs/results.md, "Grading"): per question, in position order, how many
 * submitted papers need a person (the rules, score-answer.ts, applied to the answer that is scored: an accepted
 * late answer in place of the frozen one), how many of those still wait for each marker, and how many double
 * marks disagree with no final mark. Computed from the answers and marks themselves, not from `results`, so a
 * paper whose result job is still queued counts too. Null when there is no such exam.
 *
 * A final mark decides a paper for both markers. Without double marking either marker's mark decides it, as
 * paper-result.ts has it.
 */
export async function readGradingOverview(options: { examId: string }): Promise<GradingOverview | null> {
  const { examId } = options;
  const [exam] = await queryRows<{ second_marking: boolean; released: boolean }>(
    sql`SELECT second_marking, results_released_at IS NOT NULL AS released FROM exams WHERE id = ${examId}::uuid`,
  );
  if (!exam) return null;

  const questionRows = await queryRows<QuestionRow>(
    sql`SELECT id::text AS id, position, type::text AS type, prompt, points, answer_key, tolerance, scoring,
               exact_match, ungraded
        FROM questions WHERE exam_id = ${examId}::uuid ORDER BY position`,
  );
  const questions = questionRows.map((row) => ({
    row,
    scorable: {
      type: row.type,
      points: row.points,
      answerKey: row.answer_key,
      tolerance: row.tolerance,
      scoring: row.scoring,
      exactMatch: row.exact_match,
      ungraded: row.ungraded,
    } satisfies ScorableQuestion,
  }));
  const personIds = questions.filter((question) => mayNeedPerson(question.scorable)).map(({ row }) => row.id);

  const attempts = await queryRows<{ id: string }>(
    sql`SELECT id::text AS id FROM attempts WHERE exam_id = ${examId}::uuid AND status = 'submitted'`,
  );
  // The answer that is scored: of several accepted late answers, the greatest (version, device), as
  // recompute-results.ts chooses.
  const answers =
    personIds.length === 0
      ? []
      : await queryRows<{ attempt_id: string; question_id: string; value: AnswerValue }>(
          sql`SELECT a.id::text AS attempt_id, q.id::text AS question_id, COALESCE(late.value, ans.value) AS value
              FROM attempts a
              CROSS JOIN unnest(${personIds}::uuid[]) AS q(id)
              LEFT JOIN answers ans ON ans.attempt_id = a.id AND ans.question_id = q.id
              LEFT JOIN LATERAL (
                SELECT l.value FROM late_answers l
                JOIN late_answer_decisions d ON d.late_answer_id = l.id AND d.decision = 'accepted'
                WHERE l.attempt_id = a.id AND l.question_id = q.id
                ORDER BY l.version DESC, l.device_id COLLATE "C" DESC LIMIT 1
              ) late ON true
              WHERE a.exam_id = ${examId}::uuid AND a.status = 'submitted'
                AND (ans.value IS NOT NULL OR late.value IS NOT NULL)`,
        );
  const grades = await queryRows<{ attempt_id: string; question_id: string; marker: GradeMarker; units: string }>(
    sql`SELECT g.attempt_id::text AS attempt_id, g.question_id::text AS question_id, g.marker, g.units::text AS units
        FROM grades g JOIN attempts a ON a.id = g.attempt_id
        WHERE a.exam_id = ${examId}::uuid AND a.status = 'submitted'`,
  );

  const key = (attemptId: string, questionId: string) => `${attemptId} ${questionId}`;
  const valueOf = new Map(answers.map((answer) => [key(answer.attempt_id, answer.question_id), answer.value]));
  const marksOf = new Map<string, Partial<Record<GradeMarker, string>>>();
  for (const grade of grades) {
    const id = key(grade.attempt_id, grade.question_id);
    marksOf.set(id, { ...marksOf.get(id), [grade.marker]: grade.units });
  }

  const overview: GradingOverviewQuestion[] = questions.map(({ row, scorable }) => {
    let needsPerson = 0;
    let waitingFirst = 0;
    let waitingSecond = 0;
    let disagreements = 0;
    const isPossible = mayNeedPerson(scorable);
    for (const attempt of attempts) {
      const marks = marksOf.get(key(attempt.id, row.id)) ?? {};
      const isSettled = marks.final !== undefined;
      if (
        exam.second_marking &&
        !isSettled &&
        marks.first !== undefined &&
        marks.second !== undefined &&
        marks.first !== marks.second
      ) {
        disagreements += 1;
      }
      if (!isPossible) continue;
      const value = valueOf.get(key(attempt.id, row.id));
      if (scoreAnswer(scorable, value ?? undefined).kind !== "needs_grader") continue;
      needsPerson += 1;
      if (isSettled) continue;
      if (exam.second_marking) {
        if (marks.first === undefined) waitingFirst += 1;
        if (marks.second === undefined) waitingSecond += 1;
      } else if (marks.first === undefined && marks.second === undefined) {
        waitingFirst += 1;
      }
    }
    return {
      id: row.id,
      position: row.position,
      type: row.type,
      prompt: shortPrompt(row.prompt),
      points: row.points,
      ungraded: row.ungraded,
      submitted: attempts.length,
      needsPerson,
      waiting: { first: waitingFirst, second: exam.second_marking ? waitingSecond : null },
      disagreements,
    };
  });
  return { examId, secondMarking: exam.second_marking, released: exam.released, questions: overview };
}
