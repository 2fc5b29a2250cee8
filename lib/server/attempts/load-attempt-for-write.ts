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

/**
 * The attempt as a write (autosave, submit) needs it, scoped to the caller's enrollment: someone else's
 * attempt id is a 404, like a missing one.
 */
export async function loadAttemptForWrite(options: { attemptId: string; enrollmentId: string }): Promise<AttemptForWrite> {
  const attempt = await db.attempt.findFirst({
    where: { id: options.attemptId, enrollmentId: options.enrollmentId },
    select: {
      id: true,
      status: true,
      deadline: true,
      submission: { select: { id: true } },
      exam: { select: { graceSeconds: true, questions: { select: { id: true, type: true, options: true } } } },
    },
  });
  if (!attempt) throw new AppError("NOT_FOUND", "No such attempt.");
  return {
    id: attempt.id,
    status: attempt.status,
    deadline: attempt.deadline,
    acceptsUntil: acceptsUntil(attempt.deadline, attempt.exam.graceSeconds),
    questions: attempt.exam.questions,
    submissionId: attempt.submission?.id ?? null,
  };
}

/** Details every frozen-attempt error carries, so the client can correct its clock and show why. */
export function timeDetails(attempt: Pick<AttemptForWrite, "deadline">): { serverTime: string; deadline: string } {
  return { serverTime: new Date().toISOString(), deadline: attempt.deadline.toISOString() };
}
