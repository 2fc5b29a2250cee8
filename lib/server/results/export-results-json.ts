import "server-only";

import { pointsToUnits, unitsToPoints } from "@/lib/shared/scoring/score-units";
import type { ResultQuestion } from "@/lib/shared/scoring/paper-result";

import { queryRows, sql } from "../db/sql";

/** Candidates read per query while the file streams. */
const CHUNK = 500;

type CandidateRow = {
  id: string;
  name: string;
  email: string;
  attempt_id: string | null;
  status: "in_progress" | "submitted" | null;
  submitted_at: Date | null;
  submission_id: string | null;
};

type VersionRow = {
  attempt_id: string;
  version: number;
  submission_id: string;
  score_units: string;
  max_units: string;
  pending: number;
  questions: ResultQuestion[];
  cause: string;
  actor_type: string;
  staff_user_id: string | null;
  actor_label: string;
  reason: string;
  created_at: Date;
};

/**
 * `GET /api/admin/exams/{examId}/results.json`: the exam, its questions with their maximum points, and per enrolled
 * candidate (in enrollment order) their status, the current result and every version of it, oldest first, with
 * its cause, actor, reason, time and scores (docs/results.md, "Exports"). Points are exact decimals. The current
 * result is the newest version of the paper's current submission; null while the paper is not scored. Streamed
 * by keyset, a few hundred candidates at a time. Null when there is no such exam.
 */
export async function exportResultsJson(examId: string): Promise<ReadableStream<Uint8Array> | null> {
  const [exam] = await queryRows<{ id: string; title: string; released_at: Date | null }>(
    sql`SELECT id::text AS id, title, results_released_at AS released_at FROM exams WHERE id = ${examId}::uuid`,
  );
  if (!exam) return null;
  const questions = await queryRows<{ id: string; position: number; type: string; points: number; ungraded: boolean }>(
    sql`SELECT id::text AS id, position, type::text AS type, points, ungraded
        FROM questions WHERE exam_id = ${examId}::uuid ORDER BY position`,
  );
  const maxUnits = questions.reduce(
    (sum, question) => sum + (question.ungraded ? 0 : pointsToUnits(question.points)),
    0,
  );
  const head = {
    exam: {
      id: exam.id,
      title: exam.title,
      maxScore: unitsToPoints(maxUnits),
      releasedAt: exam.released_at?.toISOString() ?? null,
      exportedAt: new Date().toISOString(),
    },
    questions: questions.map((question) => ({
      questionId: question.id,
      position: question.position,
      type: question.type,
      maxPoints: question.ungraded ? 0 : question.points,
      ungraded: question.ungraded,
    })),
  };

  const encoder = new TextEncoder();
  let after = "00000000-0000-0000-0000-000000000000";
  let isStarted = false;
  let isFirst = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!isStarted) {
        isStarted = true;
        // The head without its closing brace; the candidates follow, and the file ends "]}".
        controller.enqueue(encoder.encode(`${JSON.stringify(head).slice(0, -1)},"candidates":[`));
        return;
      }
      const candidates = await queryRows<CandidateRow>(
        sql`SELECT e.id::text AS id, e.name, e.email, a.id::text AS attempt_id, a.status::text AS status,
                   s.submitted_at, s.id::text AS submission_id
            FROM enrollments e
            LEFT JOIN attempts a ON a.enrollment_id = e.id
            LEFT JOIN submissions s ON s.attempt_id = a.id
            WHERE e.exam_id = ${examId}::uuid AND e.id > ${after}::uuid
            ORDER BY e.id
            LIMIT ${CHUNK}`,
      );
      if (candidates.length > 0) {
        const attemptIds = candidates.flatMap((candidate) => (candidate.attempt_id ? [candidate.attempt_id] : []));
        const versions = await queryRows<VersionRow>(
          sql`SELECT attempt_id::text AS attempt_id, version, submission_id::text AS submission_id,
                     score_units::text AS score_units, max_units::text AS max_units, pending, questions, cause,
                     actor_type, staff_user_id::text AS staff_user_id, actor_label, reason, created_at
              FROM result_versions
              WHERE attempt_id = ANY(${attemptIds}::uuid[])
              ORDER BY attempt_id, version`,
        );
        const versionsOf = new Map<string, VersionRow[]>();
        for (const version of versions) {
          const list = versionsOf.get(version.attempt_id);
          if (list) list.push(version);
          else versionsOf.set(version.attempt_id, [version]);
        }
        const text = candidates
          .map((candidate) => {
            const own = candidate.attempt_id ? (versionsOf.get(candidate.attempt_id) ?? []) : [];
            const current =
              candidate.status === "submitted"
                ? own.findLast((version) => version.submission_id === candidate.submission_id)
                : undefined;
            return JSON.stringify({
              enrollmentId: candidate.id,
              name: candidate.name,
              email: candidate.email,
              attemptId: candidate.attempt_id,
              status: candidate.status ?? "not_started",
              submittedAt: candidate.status === "submitted" ? (candidate.submitted_at?.toISOString() ?? null) : null,
              result: current ? { version: current.version, ...scores(current) } : null,
              versions: own.map((version) => ({
                version: version.version,
                cause: version.cause,
                actor: { type: version.actor_type, staffUserId: version.staff_user_id, label: version.actor_label },
                reason: version.reason,
                at: version.created_at.toISOString(),
                ...scores(version),
              })),
            });
          })
          .join(",");
        controller.enqueue(encoder.encode(`${isFirst ? "" : ","}${text}`));
        isFirst = false;
        after = candidates[candidates.length - 1]!.id;
      }
      if (candidates.length < CHUNK) {
        controller.enqueue(encoder.encode("]}"));
        controller.close();
      }
    },
  });
}

function scores(version: VersionRow) {
  return {
    score: unitsToPoints(Number(version.score_units)),
    maxScore: unitsToPoints(Number(version.max_units)),
    graded: version.pending === 0,
    questions: version.questions.map((question) => ({
      questionId: question.questionId,
      points: question.units === null ? null : unitsToPoints(question.units),
      maxPoints: unitsToPoints(question.maxUnits),
      source: question.source,
      reason: question.reason,
    })),
  };
}
