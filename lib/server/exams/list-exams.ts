import "server-only";

import type { ExamSummary } from "@/lib/shared/schemas/exams";

import { db } from "../db/client";
import type { StaffPrincipal } from "../auth/sessions";

/** Exams a staff member may see: all for admins, assigned ones for proctors and graders. Newest first. */
export async function listExams(options: { staff: Pick<StaffPrincipal, "role" | "userId"> }): Promise<ExamSummary[]> {
  const { role, userId } = options.staff;
  const where =
    role === "admin"
      ? {}
      : role === "grader"
        ? { graders: { some: { staffUserId: userId } } }
        : { proctors: { some: { staffUserId: userId } } };
  const exams = await db.exam.findMany({
    where,
    orderBy: { createdAt: "desc" },
    select: {
      id: true,
      title: true,
      status: true,
      durationSeconds: true,
      opensAt: true,
      closesAt: true,
      _count: { select: { questions: true, enrollments: true, attempts: true } },
    },
  });
  const submitted = await db.attempt.groupBy({
    by: ["examId"],
    where: { examId: { in: exams.map((exam) => exam.id) }, status: "submitted" },
    _count: { _all: true },
  });
  const submittedByExam = new Map(submitted.map((row) => [row.examId, row._count._all]));
  return exams.map((exam) => ({
    id: exam.id,
    title: exam.title,
    status: exam.status,
    durationSeconds: exam.durationSeconds,
    opensAt: exam.opensAt,
    closesAt: exam.closesAt,
    questionCount: exam._count.questions,
    candidateCount: exam._count.enrollments,
    startedCount: exam._count.attempts,
    submittedCount: submittedByExam.get(exam.id) ?? 0,
  }));
}
