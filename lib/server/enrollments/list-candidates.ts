import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { AppLocale } from "@/lib/shared/i18n/locales";
import { sortByName } from "@/lib/shared/i18n/name-order";
import type { EnrolledCandidateListItem } from "@/lib/shared/schemas/enrollments";

import { db, type Prisma } from "../db/client";
import { deriveJoinToken, joinUrl } from "./join-token";

/** An exam's enrollments as staff lists show them: link state and attempt (put in the reader's order by `byName`). */
export const enrollmentRowsSelect = {
  select: {
    id: true,
    name: true,
    email: true,
    externalId: true,
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

/** Enrollments by name in the reader's order (pinyin for Chinese), then email, then id: lib/shared/i18n/name-order.ts. */
export function byName<T extends { id: string; name: string; email: string }>(
  rows: readonly T[],
  locale: AppLocale,
): T[] {
  return sortByName(rows, locale, (row) => ({ name: row.name, tieBreakers: [row.email, row.id] }));
}

/**
 * An exam's enrolled candidates for admins (`GET /api/admin/exams/{examId}/candidates`), by name in the reader's
 * order: each with their join link (derived again, never stored; null once revoked) and their attempt, if any.
 */
export async function listCandidates(options: {
  examId: string;
  locale: AppLocale;
}): Promise<EnrolledCandidateListItem[]> {
  const exam = await db.exam.findUnique({
    where: { id: options.examId },
    select: {
      enrollments: enrollmentRowsSelect,
    },
  });
  if (!exam) throw new AppError("NOT_FOUND", "No such exam.");
  return byName(exam.enrollments, options.locale).map((enrollment) => ({
    id: enrollment.id,
    name: enrollment.name,
    email: enrollment.email,
    externalId: enrollment.externalId,
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
