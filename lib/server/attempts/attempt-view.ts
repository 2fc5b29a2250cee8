import "server-only";

import type { AnswerValue, AttemptView } from "@/lib/shared/schemas/attempts";
import type { CandidateQuestion, Option } from "@/lib/shared/schemas/exams";
import { acceptsUntil } from "@/lib/shared/deadline";
import { paperOrder } from "@/lib/shared/paper-order";

import { findCandidateAnnouncements } from "../announcements/find-candidate-announcements";
import { prepared, queryRows } from "../db/sql";

type ViewRow = {
  id: string;
  exam_id: string;
  status: AttemptView["status"];
  started_at: Date;
  deadline: Date;
  paused_at: Date | null;
  pause_reason: string | null;
  revision: number;
  shuffle_seed: number;
  title: string;
  grace_seconds: number;
  shuffle_questions: boolean;
  shuffle_options: boolean;
  questions: {
    id: string;
    position: number;
    type: CandidateQuestion["type"];
    prompt: string;
    points: number;
    options: Option[] | null;
  }[];
  answers: { questionId: string; value: AnswerValue; version: number; deviceId: string }[];
  submission_id: string | null;
  submitted_at: Date | null;
  digest: string | null;
  source: NonNullable<AttemptView["submission"]>["source"] | null;
  submission_version: number | null;
  earlier: {
    id: string;
    version: number;
    submittedAt: string;
    digest: string;
    source: NonNullable<AttemptView["earlierSubmissions"]>[number]["source"];
    receipt: string;
    supersededAt: string;
  }[];
};

/**
 * The attempt, its exam's questions, its answers, its submission and its earlier submissions (ADR 017) in one
 * statement: a start storm reads this for every candidate (issue 17), and one round trip costs far less than
 * a query per relation. Answer keys are never selected. Timestamps inside the JSON arrays come back as ISO
 * text and are read back into instants below.
 */
const VIEW_STATEMENT = `
  SELECT a.id::text AS id, a.exam_id::text AS exam_id, a.status::text AS status, a.started_at, a.deadline,
         a.paused_at, a.pause_reason, a.revision, a.shuffle_seed,
         x.title, x.grace_seconds, x.shuffle_questions, x.shuffle_options,
         (SELECT coalesce(json_agg(json_build_object('id', q.id, 'position', q.position, 'type', q.type,
                   'prompt', q.prompt, 'points', q.points, 'options', q.options) ORDER BY q.position), '[]'::json)
            FROM questions q WHERE q.exam_id = a.exam_id) AS questions,
         (SELECT coalesce(json_agg(json_build_object('questionId', n.question_id, 'value', n.value,
                   'version', n.version, 'deviceId', n.device_id) ORDER BY n.id), '[]'::json)
            FROM answers n WHERE n.attempt_id = a.id) AS answers,
         s.id::text AS submission_id, s.submitted_at, s.digest, s.source::text AS source,
         s.version AS submission_version,
         (SELECT coalesce(json_agg(json_build_object('id', h.id, 'version', h.version, 'submittedAt', h.submitted_at,
                   'digest', h.digest, 'source', h.source, 'receipt', h.receipt, 'supersededAt', h.superseded_at)
                   ORDER BY h.version), '[]'::json)
            FROM submission_history h WHERE h.attempt_id = a.id) AS earlier
  FROM attempts a
  JOIN exams x ON x.id = a.exam_id
  LEFT JOIN submissions s ON s.attempt_id = a.id
  WHERE a.id = $1::uuid AND a.enrollment_id = $2::uuid`;

/**
 * Loads an attempt as its candidate sees it. Authorization lives in the query: the attempt must belong
 * to the caller's enrollment, so someone else's id is indistinguishable from a missing one.
 */
export async function findAttemptView(options: {
  attemptId: string;
  enrollmentId: string;
}): Promise<AttemptView | null> {
  // The facts are at least as new as this moment: taken before reading them, so a device that orders facts by
  // serverTime never lets this view's (say, "not paused") override a newer one read elsewhere a moment later.
  const readAt = new Date();
  // The announcements are read for the caller's own enrollment, so they can be read beside the attempt.
  const [rows, announcements] = await Promise.all([
    queryRows<ViewRow>(
      prepared("attempt-view", { text: VIEW_STATEMENT, values: [options.attemptId, options.enrollmentId] }),
    ),
    findCandidateAnnouncements({ enrollmentId: options.enrollmentId }),
  ]);
  const attempt = rows[0];
  if (!attempt) return null;

  const inExamOrder: CandidateQuestion[] = attempt.questions.map((question) => ({
    id: question.id,
    position: question.position,
    type: question.type,
    prompt: question.prompt,
    points: question.points,
    ...(question.options ? { options: question.options } : {}),
  }));
  // The candidate's own order, drawn from the attempt's seed (lib/shared/paper-order.ts).
  const exam = { shuffleQuestions: attempt.shuffle_questions, shuffleOptions: attempt.shuffle_options };
  const questions = paperOrder(inExamOrder, exam, attempt.shuffle_seed);
  return {
    attemptId: attempt.id,
    examId: attempt.exam_id,
    examTitle: attempt.title,
    status: attempt.status,
    startedAt: attempt.started_at.toISOString(),
    deadline: attempt.deadline.toISOString(),
    acceptsUntil: acceptsUntil(attempt.deadline, attempt.grace_seconds).toISOString(),
    serverTime: readAt.toISOString(),
    pausedAt: attempt.paused_at?.toISOString() ?? null,
    pauseReason: attempt.pause_reason,
    revision: attempt.revision,
    questions,
    answers: attempt.answers,
    submission:
      attempt.submission_id !== null &&
      attempt.submitted_at !== null &&
      attempt.digest !== null &&
      attempt.source !== null &&
      attempt.submission_version !== null
        ? {
            submissionId: attempt.submission_id,
            submittedAt: attempt.submitted_at.toISOString(),
            digest: attempt.digest,
            source: attempt.source,
            version: attempt.submission_version,
          }
        : null,
    announcements,
    earlierSubmissions: attempt.earlier.map((submission) => ({
      submissionId: submission.id,
      version: submission.version,
      submittedAt: new Date(submission.submittedAt).toISOString(),
      digest: submission.digest,
      source: submission.source,
      receipt: submission.receipt,
      supersededAt: new Date(submission.supersededAt).toISOString(),
    })),
  };
}
