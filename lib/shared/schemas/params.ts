import { z } from "@/lib/shared/zod";

import { UuidSchema } from "./attempts";

export const ExamParamsSchema = z.object({ examId: UuidSchema });
export const AttemptParamsSchema = z.object({ attemptId: UuidSchema });
/** `/api/proctor/exams/{examId}/candidates/{enrollmentId}/…` */
export const ExamCandidateParamsSchema = z.object({ examId: UuidSchema, enrollmentId: UuidSchema });
