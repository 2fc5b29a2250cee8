import { z } from "@/lib/shared/zod";

import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from "../text";
import { UuidSchema } from "./attempts";
import { EXTEND_LIMITS } from "./proctor";

/**
 * Pause and resume (docs/sync-protocol.md, "Pause and resume"; ADR 016). Strict bodies: a misspelt
 * `enrollmentIds` must be refused, never read as "the whole exam".
 */

/** The bounds of a pause's reason, shared by the API's schema and the dashboard's form. */
export const PAUSE_LIMITS = {
  minReasonLength: EXTEND_LIMITS.minReasonLength,
  maxReasonLength: EXTEND_LIMITS.maxReasonLength,
  maxEnrollmentIds: 10_000,
} as const;

const EnrollmentIdsSchema = z
  .array(UuidSchema)
  .min(1, "select at least one candidate, or leave enrollmentIds out for the whole exam")
  .max(PAUSE_LIMITS.maxEnrollmentIds, "at most 10,000 candidates at once");

/** `POST /api/proctor/exams/{examId}/pause`: without `enrollmentIds`, the whole exam. */
export const PauseSchema = z.strictObject({
  reason: z
    .string()
    .trim()
    .min(PAUSE_LIMITS.minReasonLength, "give a short reason (at least 3 characters)")
    .max(PAUSE_LIMITS.maxReasonLength, "must be at most 500 characters")
    .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE),
  enrollmentIds: EnrollmentIdsSchema.optional(),
});
export type PauseBody = z.infer<typeof PauseSchema>;

/** `POST /api/proctor/exams/{examId}/resume`: without `enrollmentIds`, the whole exam. */
export const ResumeSchema = z.strictObject({
  enrollmentIds: EnrollmentIdsSchema.optional(),
});
export type ResumeBody = z.infer<typeof ResumeSchema>;

/** `…/pause` and `…/resume` → 200. Times are ISO strings, by the database's clock. */
export type PauseResponse =
  | { action: "pause"; pausedAt: string; attempts: number; enrollmentIds: string[] | null }
  | { action: "resume"; resumedAt: string; attempts: number; enrollmentIds: string[] | null };
