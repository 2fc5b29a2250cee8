import "server-only";

import { acceptsUntil } from "@/lib/shared/deadline";
import { AppError } from "@/lib/shared/errors";

import { db } from "../db/client";
import type { QuestionForValidation } from "../answers/validate-delta";

export type AttemptForWrite = {
  id: string;
  status: "in_progress" | "submitted";
  deadline: Date;
  acceptsUntil: Date;
  questions: QuestionForValidation[];
  submissionId: string | null;
};

// An exam's questions never change once it is created (no endpoint edits them), so every autosave need not
// read them again: they are kept per exam in this process, at most MAX_CACHED_EXAMS of them, oldest out
// first. If an endpoint that edits questions is ever added, it must delete the exam's entry here.
const MAX_CACHED_EXAMS = 500;
const globalForQuestions = globalThis as unknown as { holdfastQuestions?: Map<string, QuestionForValidation[]> };
const questionCache = (globalForQuestions.holdfastQuestions ??= new Map());

/** The exam's questions, for validating a delta: from this process's cache, else one read. */
export async function examQuestions(examId: string): Promise<QuestionForValidation[]> {
  const cached = questionCache.get(examId);
  if (cached) return cached;
  const questions = await db.question.findMany({ where: { examId }, select: { id: true, type: true, options: true } });
  questionCache.set(examId, questions);
  if (questionCache.size > MAX_CACHED_EXAMS) {
    const oldest = questionCache.keys().next().value;
    if (oldest !== undefined) questionCache.delete(oldest);
  }
  return questions;
}

/**
 * The attempt as a write (autosave, submit) needs it, scoped to the caller's enrollment: someone else's
 * attempt id is a 404, like a missing one. One raw statement on the hot path (Prisma's relation reads
 * cost several queries and most of a request's CPU), plus the exam's questions from the cache above.
 */
export async function loadAttemptForWrite(options: {
  attemptId: string;
  enrollmentId: string;
}): Promise<AttemptForWrite> {
  const rows = await db.$queryRaw<
    {
      id: string;
      status: "in_progress" | "submitted";
      deadline: Date;
      exam_id: string;
      grace_seconds: number;
      submission_id: string | null;
    }[]
  >`
    SELECT a.id::text AS id, a.status::text AS status, a.deadline, a.exam_id::text AS exam_id, e.grace_seconds,
           s.id::text AS submission_id
    FROM attempts a
      JOIN exams e ON e.id = a.exam_id
      LEFT JOIN submissions s ON s.attempt_id = a.id
    WHERE a.id = ${options.attemptId}::uuid AND a.enrollment_id = ${options.enrollmentId}::uuid`;
  const attempt = rows[0];
  if (!attempt) throw new AppError("NOT_FOUND", "No such attempt.");
  return {
    id: attempt.id,
    status: attempt.status,
    deadline: attempt.deadline,
    acceptsUntil: acceptsUntil(attempt.deadline, attempt.grace_seconds),
    questions: await examQuestions(attempt.exam_id),
    submissionId: attempt.submission_id,
  };
}

/** Details every frozen-attempt error carries, so the client can correct its clock and show why. */
export function timeDetails(attempt: Pick<AttemptForWrite, "deadline">): { serverTime: string; deadline: string } {
  return { serverTime: new Date().toISOString(), deadline: attempt.deadline.toISOString() };
}
