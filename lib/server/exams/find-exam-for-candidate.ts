import "server-only";

import { examAvailability, type ExamAvailability } from "@/lib/shared/exam-availability";
import type { AttemptStatus } from "@/lib/shared/schemas/attempts";

import type { CandidatePrincipal } from "../auth/sessions";
import { db } from "../db/client";

export type CandidateExam = {
  id: string;
  title: string;
  description: string;
  rules: string;
  durationSeconds: number;
  /** This candidate's extra time, on top of the duration. */
  extraSeconds: number;
  opensAt: Date | null;
  closesAt: Date | null;
  questionCount: number;
  availability: ExamAvailability;
  attempt: { id: string; status: AttemptStatus; deadline: Date } | null;
};

/**
 * The exam behind a candidate's start page. Authorization lives in the query: the candidate's own
 * enrollment must belong to `examId`, so any other exam id reads as missing (null). No answer keys.
 */
export async function findExamForCandidate(options: {
  examId: string;
  candidate: CandidatePrincipal;
}): Promise<CandidateExam | null> {
  const enrollment = await db.enrollment.findFirst({
    where: { id: options.candidate.enrollmentId, examId: options.examId },
    select: {
      extraSeconds: true,
      attempt: { select: { id: true, status: true, deadline: true } },
      exam: {
        select: {
          id: true,
          title: true,
          description: true,
          rules: true,
          status: true,
          durationSeconds: true,
          opensAt: true,
          closesAt: true,
          _count: { select: { questions: true } },
        },
      },
    },
  });
  if (!enrollment) return null;

  const { exam } = enrollment;
  return {
    id: exam.id,
    title: exam.title,
    description: exam.description,
    rules: exam.rules,
    durationSeconds: exam.durationSeconds,
    extraSeconds: enrollment.extraSeconds,
    opensAt: exam.opensAt,
    closesAt: exam.closesAt,
    questionCount: exam._count.questions,
    availability: examAvailability(exam, new Date()),
    attempt: enrollment.attempt,
  };
}
