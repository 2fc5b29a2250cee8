import "server-only";

import type { AnswerValue, AttemptView } from "@/lib/shared/schemas/attempts";
import type { CandidateQuestion, Option } from "@/lib/shared/schemas/exams";
import { acceptsUntil } from "@/lib/shared/deadline";
import { paperOrder } from "@/lib/shared/paper-order";

import { findCandidateAnnouncements } from "../announcements/find-candidate-announcements";
import { db } from "../db/client";

/** The select that every candidate-facing read of an attempt uses. Answer keys are never selected. */
const attemptSelect = {
  id: true,
  examId: true,
  status: true,
  startedAt: true,
  deadline: true,
  pausedAt: true,
  pauseReason: true,
  revision: true,
  shuffleSeed: true,
  exam: {
    select: {
      title: true,
      graceSeconds: true,
      shuffleQuestions: true,
      shuffleOptions: true,
      questions: {
        orderBy: { position: "asc" },
        select: { id: true, position: true, type: true, prompt: true, points: true, options: true },
      },
    },
  },
  answers: { select: { questionId: true, value: true, version: true, deviceId: true } },
  submission: { select: { id: true, submittedAt: true, digest: true, source: true, version: true } },
} as const;

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
  const [attempt, announcements] = await Promise.all([
    db.attempt.findFirst({
      where: { id: options.attemptId, enrollmentId: options.enrollmentId },
      select: attemptSelect,
    }),
    findCandidateAnnouncements({ enrollmentId: options.enrollmentId }),
  ]);
  // Prisma reads the relation in a second query: an exam deleted between the two (its attempts go with it)
  // leaves `exam` null despite the type. That attempt no longer exists: a 404, not a 500.
  if (!attempt || !attempt.exam) return null;
  // No relation (submission_history has no foreign key, ADR 017): read by the attempt id the query above scoped.
  const earlier = await db.submissionHistory.findMany({
    where: { attemptId: attempt.id },
    orderBy: { version: "asc" },
    select: {
      id: true,
      version: true,
      submittedAt: true,
      digest: true,
      source: true,
      receipt: true,
      supersededAt: true,
    },
  });

  const inExamOrder: CandidateQuestion[] = attempt.exam.questions.map((question) => ({
    id: question.id,
    position: question.position,
    type: question.type,
    prompt: question.prompt,
    points: question.points,
    ...(question.options ? { options: question.options as Option[] } : {}),
  }));
  // The candidate's own order, drawn from the attempt's seed (lib/shared/paper-order.ts).
  const questions = paperOrder(inExamOrder, attempt.exam, attempt.shuffleSeed);
  return {
    attemptId: attempt.id,
    examId: attempt.examId,
    examTitle: attempt.exam.title,
    status: attempt.status,
    startedAt: attempt.startedAt.toISOString(),
    deadline: attempt.deadline.toISOString(),
    acceptsUntil: acceptsUntil(attempt.deadline, attempt.exam.graceSeconds).toISOString(),
    serverTime: readAt.toISOString(),
    pausedAt: attempt.pausedAt?.toISOString() ?? null,
    pauseReason: attempt.pauseReason,
    revision: attempt.revision,
    questions,
    answers: attempt.answers.map((answer) => ({
      questionId: answer.questionId,
      value: answer.value as AnswerValue,
      version: answer.version,
      deviceId: answer.deviceId,
    })),
    submission: attempt.submission
      ? {
          submissionId: attempt.submission.id,
          submittedAt: attempt.submission.submittedAt.toISOString(),
          digest: attempt.submission.digest,
          source: attempt.submission.source,
          version: attempt.submission.version,
        }
      : null,
    announcements,
    earlierSubmissions: earlier.map((submission) => ({
      submissionId: submission.id,
      version: submission.version,
      submittedAt: submission.submittedAt.toISOString(),
      digest: submission.digest,
      source: submission.source,
      receipt: submission.receipt,
      supersededAt: submission.supersededAt.toISOString(),
    })),
  };
}
