import { z } from "@/lib/shared/zod";

import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from "../text";
import type { SUBMISSION_SOURCES } from "./proctor";

/**
 * Responses of the proctor actions (docs/sync-protocol.md, "Proctor actions"). Request bodies of extend are
 * `ExtendSchema` / `BulkExtendSchema` in ./proctor.ts. Times are ISO strings.
 */

/** What extra time did for one candidate. */
export type ExtensionOutcome = "extended" | "pending_start" | "already_submitted" | "not_found";

/** `POST /api/proctor/attempts/{attemptId}/extend` → 200. */
export type ExtendResponse = {
  extensionId: string;
  enrollmentId: string;
  /** Null when the id named a candidate who has not started (`outcome: "pending_start"`). */
  attemptId: string | null;
  seconds: number;
  /** Null for `pending_start`: the time waits in the enrollment and counts when they start. */
  previousDeadline: string | null;
  deadline: string | null;
  outcome: Extract<ExtensionOutcome, "extended" | "pending_start">;
};

/** `POST /api/proctor/exams/{examId}/extend` → 200, one result per distinct enrollment id, in request order. */
export type BulkExtendResponse = {
  results: BulkExtendResult[];
};

export type BulkExtendResult = {
  enrollmentId: string;
  outcome: ExtensionOutcome;
  /** For `extended` and `pending_start`. */
  extensionId?: string;
  /** The new deadline, for `extended`. */
  deadline?: string;
  /** The existing submission, for `already_submitted`. */
  submissionId?: string;
  /** True when the Idempotency-Key had already extended this candidate: this is the stored result. */
  replayed?: boolean;
};

/** `POST /api/proctor/attempts/{attemptId}/force-submit` body: optional, `{}` or empty. */
/**
 * `POST /api/proctor/attempts/{attemptId}/force-submit` body (may be empty). Strict: force-submit cannot be
 * undone, so a body meant for another action (`{"seconds": …}`) is refused, not ignored.
 */
export const ForceSubmitSchema = z.strictObject({
  reason: z
    .string()
    .trim()
    .max(500, "must be at most 500 characters")
    .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE)
    .optional(),
});
export type ForceSubmitBody = z.infer<typeof ForceSubmitSchema>;

/** `POST /api/proctor/attempts/{attemptId}/force-submit` → 200. */
export type ForceSubmitResponse = {
  submissionId: string;
  submittedAt: string;
  digest: string;
  source: (typeof SUBMISSION_SOURCES)[number];
  /** True when the attempt was already submitted (by anyone): this is that submission, nothing new was made. */
  alreadySubmitted: boolean;
};
