import { z } from "@/lib/shared/zod";

import { UuidSchema } from "./attempts";
import { InstantSchema } from "./instant";

/**
 * `POST /api/admin/receipts/verify`: the receipt file as the candidate downloads it (components/exam/receipt.tsx,
 * `receiptFile`). Only the signed fields are required (attempt id, submission time, digest, signature); the rest
 * is what the file claims and is echoed back, never trusted. Unknown fields are ignored.
 */
export const ReceiptFileSchema = z.object({
  format: z.literal("holdfast-receipt").optional(),
  v: z.literal(1).optional(),
  attemptId: UuidSchema,
  submittedAt: z.string().min(1).max(64),
  digest: z.string().min(1).max(256),
  receipt: z.string().min(1).max(256),
  examTitle: z.string().max(1_000).nullish(),
  candidateName: z.string().max(1_000).nullish(),
  submissionId: z.string().max(64).nullish(),
  source: z.string().max(32).nullish(),
});
export type ReceiptFile = z.infer<typeof ReceiptFileSchema>;

/**
 * Why a receipt is not valid: `signature` — the signature does not match the fields (a changed byte, or another
 * server's receipt); `unknown_attempt` — signed by this server, but no such attempt exists; `unknown_submission` —
 * the attempt exists, but none of its submissions, current or earlier, has this time and digest.
 */
export const RECEIPT_INVALID_REASONS = ["signature", "unknown_attempt", "unknown_submission"] as const;
export type ReceiptInvalidReason = (typeof RECEIPT_INVALID_REASONS)[number];

/** The verifier's answer: an answer, not an error, whether the receipt is valid or not. */
export type ReceiptVerdict = {
  valid: boolean;
  /** Null when valid. */
  reason: ReceiptInvalidReason | null;
  attemptId: string;
  /** The attempt's exam and candidate as the server records them; null when the attempt is unknown. */
  examId: string | null;
  examTitle: string | null;
  candidateName: string | null;
  candidateEmail: string | null;
  /** The submission the receipt is for; null unless valid. */
  submissionId: string | null;
  submittedAt: string;
  /** Its version (1, then 2 after a reopening…, ADR 017); null unless valid. */
  version: number | null;
  /** True: the attempt's current submission, which the results use; false: an earlier one, reopened since. */
  current: boolean | null;
  /** When a reopening superseded it; null for the current one. */
  supersededAt: string | null;
  /** The digest computed again from the frozen paper (or the history's snapshot of it) equals the receipt's. */
  digestMatchesPaper: boolean | null;
  /** What the file says, echoed as written. */
  claimed: {
    examTitle: string | null;
    candidateName: string | null;
    submissionId: string | null;
    source: string | null;
    digest: string;
  };
};

export const ReceiptVerdictSchema = z.object({
  valid: z.boolean(),
  reason: z
    .enum(RECEIPT_INVALID_REASONS)
    .nullable()
    .describe(
      "null when valid; signature: the signature does not match the fields; unknown_attempt: no such attempt; " +
        "unknown_submission: no submission of the attempt, current or earlier, has this time and digest",
    ),
  attemptId: UuidSchema,
  examId: UuidSchema.nullable(),
  examTitle: z.string().nullable(),
  candidateName: z.string().nullable(),
  candidateEmail: z.string().nullable(),
  submissionId: UuidSchema.nullable(),
  submittedAt: z.string().describe("as the receipt claims it"),
  version: z.number().int().nullable(),
  current: z.boolean().nullable().describe("the attempt's current submission (false: an earlier one, reopened since)"),
  supersededAt: InstantSchema.nullable(),
  digestMatchesPaper: z
    .boolean()
    .nullable()
    .describe("the digest computed again from the frozen paper (or its snapshot in history) equals the receipt's"),
  claimed: z.object({
    examTitle: z.string().nullable(),
    candidateName: z.string().nullable(),
    submissionId: z.string().nullable(),
    source: z.string().nullable(),
    digest: z.string(),
  }),
}) satisfies z.ZodType<ReceiptVerdict>;
