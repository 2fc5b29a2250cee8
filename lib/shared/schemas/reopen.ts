import { z } from "zod";

import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from "../text";
import { EXTEND_LIMITS } from "./proctor";

/**
 * `POST /api/admin/attempts/{attemptId}/reopen` (docs/admin-api.md, "Reopening a submitted attempt"; ADR 017).
 * `seconds` like extra time (`ExtendSchema`): the new deadline is now + seconds by the database's clock,
 * capped at the exam's `closesAt`.
 */
export const ReopenSchema = z.strictObject({
  seconds: z
    .number()
    .int("must be a whole number of seconds")
    .min(EXTEND_LIMITS.minSeconds, "must be at least 60 seconds")
    .max(EXTEND_LIMITS.maxSeconds, "must be at most 24 hours"),
  reason: z
    .string()
    .trim()
    .min(EXTEND_LIMITS.minReasonLength, "give a short reason (at least 3 characters)")
    .max(EXTEND_LIMITS.maxReasonLength, "must be at most 500 characters")
    .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE),
});
export type ReopenBody = z.infer<typeof ReopenSchema>;

/** `POST /api/admin/attempts/{attemptId}/reopen` → 200. */
export type ReopenResponse = {
  reopeningId: string;
  attemptId: string;
  /** The submission moved to the history, and its version (the next submit makes version + 1). */
  supersededSubmissionId: string;
  supersededVersion: number;
  seconds: number;
  reason: string;
  previousDeadline: string;
  /** now + seconds by the database's clock, or the exam's `closesAt` if that comes first. */
  deadline: string;
  status: "in_progress";
};
