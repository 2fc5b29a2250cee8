import "server-only";

import type { AppLocale } from "@/lib/shared/i18n/locales";
import type { AttemptStatus } from "@/lib/shared/schemas/attempts";
import {
  RESULTS_DETAILS,
  RESULTS_VISIBILITIES,
  type ExamStatus,
  type Option,
  type QuestionType,
  type ResultsDetail,
  type ResultsVisibility,
} from "@/lib/shared/schemas/exams";

import { z } from "zod";

import type { StaffPrincipal } from "../auth/sessions";
import { db } from "../db/client";
import { deriveJoinToken, joinUrl } from "../enrollments/join-token";
import { byName, enrollmentRowsSelect } from "../enrollments/list-candidates";
import { AnswerKeySchema, OptionsSchema } from "./find-admin-exam";

export type StaffExamQuestion = {
  id: string;
  position: number;
  type: QuestionType;
  prompt: string;
  points: number;
  options: Option[];
  /** Staff only. Choice: option id(s); numeric: a number; short text: an accepted answer; else null. */
  answerKey: string | number | string[] | null;
  tolerance: number | null;
  /** Guidance for graders; "" for none. */
  rubric: string;
};

export type StaffExamCandidate = {
  id: string;
  name: string;
  email: string;
  extraSeconds: number;
  /** The candidate's personal link, or null once staff revoked it. */
  joinUrl: string | null;
  attempt: { id: string; status: AttemptStatus; startedAt: Date; deadline: Date; submittedAt: Date | null } | null;
};

export type StaffExamDetail = {
  id: string;
  title: string;
  description: string;
  rules: string;
  status: ExamStatus;
  durationSeconds: number;
  graceSeconds: number;
  opensAt: Date | null;
  closesAt: Date | null;
  resultsVisibility: ResultsVisibility;
  resultsDetail: ResultsDetail;
  secondMarking: boolean;
  questions: StaffExamQuestion[];
  candidates: StaffExamCandidate[];
};

/**
 * One exam as staff see it: questions with answer keys, candidates with their join links and attempts.
 * Authorization lives in the query: admins see every exam, a proctor only the exams assigned to them,
 * so any other id reads as missing (null).
 */
export async function findExamForStaff(options: {
  examId: string;
  staff: Pick<StaffPrincipal, "role" | "userId">;
  /** The reader's language: candidates come by name in its order. */
  locale: AppLocale;
}): Promise<StaffExamDetail | null> {
  const { examId, staff } = options;
  const exam = await db.exam.findFirst({
    where: staff.role === "admin" ? { id: examId } : { id: examId, proctors: { some: { staffUserId: staff.userId } } },
    select: {
      id: true,
      title: true,
      description: true,
      rules: true,
      status: true,
      durationSeconds: true,
      graceSeconds: true,
      opensAt: true,
      closesAt: true,
      resultsVisibility: true,
      resultsDetail: true,
      secondMarking: true,
      questions: {
        orderBy: { position: "asc" },
        select: {
          id: true,
          position: true,
          type: true,
          prompt: true,
          points: true,
          options: true,
          answerKey: true,
          tolerance: true,
          rubric: true,
        },
      },
      enrollments: enrollmentRowsSelect,
    },
  });
  if (!exam) return null;

  return {
    id: exam.id,
    title: exam.title,
    description: exam.description,
    rules: exam.rules,
    status: exam.status,
    durationSeconds: exam.durationSeconds,
    graceSeconds: exam.graceSeconds,
    opensAt: exam.opensAt,
    closesAt: exam.closesAt,
    resultsVisibility: z.enum(RESULTS_VISIBILITIES).catch("after_release").parse(exam.resultsVisibility),
    resultsDetail: z.enum(RESULTS_DETAILS).catch("per_question").parse(exam.resultsDetail),
    secondMarking: exam.secondMarking,
    questions: exam.questions.map((question) => ({
      id: question.id,
      position: question.position,
      type: question.type,
      prompt: question.prompt,
      points: question.points,
      options: OptionsSchema.parse(question.options ?? []),
      answerKey: AnswerKeySchema.parse(question.answerKey),
      tolerance: question.tolerance,
      rubric: question.rubric,
    })),
    candidates: byName(exam.enrollments, options.locale).map((enrollment) => ({
      id: enrollment.id,
      name: enrollment.name,
      email: enrollment.email,
      extraSeconds: enrollment.extraSeconds,
      joinUrl: enrollment.joinRevokedAt ? null : joinUrl(deriveJoinToken(enrollment.id, enrollment.tokenGeneration)),
      attempt: enrollment.attempt
        ? {
            id: enrollment.attempt.id,
            status: enrollment.attempt.status,
            startedAt: enrollment.attempt.startedAt,
            deadline: enrollment.attempt.deadline,
            submittedAt: enrollment.attempt.submission?.submittedAt ?? null,
          }
        : null,
    })),
  };
}
