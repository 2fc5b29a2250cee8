import { z } from "@/lib/shared/zod";

import { UuidSchema } from "./attempts";
import { InstantSchema } from "./instant";
import { ExtendSchema } from "./proctor";

/**
 * `POST /api/admin/attempts/{attemptId}/reopen` (docs/admin-api.md, "Reopening a submitted attempt"; ADR 017).
 * The same fields and bounds as extra time (`ExtendSchema`), no others: the new deadline is now + seconds by the database's clock,
 * capped at the exam's `closesAt`.
 */
export const ReopenSchema = ExtendSchema.strict();
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

export const ReopenResponseSchema = z.object({
  reopeningId: UuidSchema,
  attemptId: UuidSchema,
  supersededSubmissionId: UuidSchema,
  supersededVersion: z.number().int().min(1),
  seconds: z.number().int(),
  reason: z.string(),
  previousDeadline: InstantSchema,
  deadline: InstantSchema.describe("now + seconds by the database's clock, capped at the exam's closesAt"),
  status: z.literal("in_progress"),
}) satisfies z.ZodType<ReopenResponse>;
