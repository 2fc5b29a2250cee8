import { z } from "@/lib/shared/zod";

import { ERROR_STATUS, type ErrorBody } from "@/lib/shared/errors";

/**
 * What every response schema builds on. Instants are ISO 8601 strings unless a field says epoch
 * milliseconds (the proctor API).
 */

export const Instant = z.iso.datetime({ offset: true });
export const EpochMs = z.number().int().describe("epoch milliseconds, server clock");
/** null: a cleared answer ("no answer"), versioned like any other edit. */
export const AnswerValueSchema = z.union([z.string(), z.number(), z.array(z.string())]).nullable();
export const Count = z.number().int().min(0);

/** `{ "error": { "code", "message", "details"? } }`: every refusal, every status. */
export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS, ...(keyof typeof ERROR_STATUS)[]]),
    message: z.string().describe("English, for people; clients switch on `code`"),
    details: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "`issues` ([{ path, message }]) for VALIDATION_FAILED, `submissionId` for ALREADY_SUBMITTED, `requestId` for 500/503",
      ),
  }),
}) satisfies z.ZodType<ErrorBody>;
