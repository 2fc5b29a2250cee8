import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { EnrolledCandidateListItem } from "@/lib/shared/schemas/enrollments";

import { db, type Prisma } from "../db/client";
import { deriveJoinToken, joinUrl } from "./join-token";

/** An exam's enrollments as staff lists show them (by name): link state and attempt. */
export const enrollmentRowsSelect = {
  orderBy: [{ name: "asc" }, { email: "asc" }],
  select: {
    id: true,
    name: true,
    email: true,
    extraSeconds: true,
    tokenGeneration: true,
    joinRevokedAt: true,
    createdAt: true,
    attempt: {
      select: {
        id: true,
        status: true,
        startedAt: true,
        deadline: true,
        submission: { select: { submittedAt: true, version: true } },
        _count: { select: { reopenings: true } },
      },
    },
  },
} satisfies Prisma.Exam$enrollmentsArgs;

/**
 * An exam's enrolled candidates for admins (`GET /api/admin/exams/{examId}/candidates`), by name: each
 * with their join link (derived again, never stored; null once revoked) and their attempt, if any.
 */
export async function listCandidates(options: { examId: string }): Promise<EnrolledCandidateListItem[]> {
  const exam = await db.exam.findUnique({
    where: { id: options.examId },
    select: {
      enrollments: enrollmentRowsSelect,
    },
  });
  if (!exam) throw new AppError("NOT_FOUND", "No such exam.");
  return exam.enrollments.map((enrollment) => ({
    id: enrollment.id,
    name: enrollment.name,
    email: enrollment.email,
    extraSeconds: enrollment.extraSeconds,
    joinLink: enrollment.joinRevokedAt
      ? { status: "revoked", revokedAt: enrollment.joinRevokedAt.toISOString(), generation: enrollment.tokenGeneration }
      : {
          status: "active",
          url: joinUrl(deriveJoinToken(enrollment.id, enrollment.tokenGeneration)),
          generation: enrollment.tokenGeneration,
        },
    attempt: enrollment.attempt
      ? {
          id: enrollment.attempt.id,
          status: enrollment.attempt.status,
          startedAt: enrollment.attempt.startedAt.toISOString(),
          deadline: enrollment.attempt.deadline.toISOString(),
          submittedAt: enrollment.attempt.submission?.submittedAt.toISOString() ?? null,
          submissionVersion: enrollment.attempt.submission?.version ?? null,
          reopenings: enrollment.attempt._count.reopenings,
        }
      : null,
    createdAt: enrollment.createdAt.toISOString(),
  }));
}
