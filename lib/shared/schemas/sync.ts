import { z } from "@/lib/shared/zod";

import { DEVICE_ID_PATTERN, LIMITS } from "../limits";
import { UuidSchema, type AnswerValue } from "./attempts";
import { DeviceStatusSchema } from "./device-status";

export const DeviceIdSchema = z.string().regex(DEVICE_ID_PATTERN, "must be 1–64 characters of A–Z a–z 0–9 _ -");

export const VersionSchema = z
  .number()
  .int("must be an integer")
  .min(1, "must be at least 1")
  .max(LIMITS.maxVersion, `must be at most ${LIMITS.maxVersion}`);

/**
 * One changed answer in a delta. The value's shape is checked against its question on the server; `null` clears
 * the answer ("no answer"), an edit like any other: versioned, and scored as blank.
 */
export const AnswerDeltaItemSchema = z.object({
  questionId: UuidSchema,
  value: z.unknown().refine((value) => value !== undefined, "is required"),
  version: VersionSchema,
  /** When the candidate made this edit, by the device's clock. Kept with late answers; never trusted for order. */
  editedAt: z.iso.datetime({ offset: true }).optional(),
});

/** `POST /api/attempts/{attemptId}/answers` request body. */
export const AutosaveSchema = z.object({
  deviceId: DeviceIdSchema,
  answers: z.array(AnswerDeltaItemSchema).max(LIMITS.maxQuestionsPerExam),
  /**
   * The device's sync health as it stands once this delta is applied, in place of a heartbeat (ADR 022): kept
   * for the proctors only when the delta is applied. Optional; a client that omits it sends heartbeats.
   */
  device: DeviceStatusSchema.optional(),
});

/** `POST /api/attempts/{attemptId}/submit` request body. */
export const SubmitSchema = z.object({
  deviceId: DeviceIdSchema,
  answers: z.array(AnswerDeltaItemSchema).max(LIMITS.maxQuestionsPerExam).default([]),
  digest: z
    .string()
    .regex(/^[0-9a-f]{64}$/, "must be a SHA-256 hex digest")
    .optional(),
});

/** The Idempotency-Key header: 1–255 printable ASCII characters. */
export const IdempotencyKeySchema = z
  .string()
  .regex(/^[\x20-\x7e]{1,255}$/, "must be 1–255 printable ASCII characters");

export type AnswerResult =
  | { questionId: string; status: "applied" | "duplicate"; version: number }
  | { questionId: string; status: "stale"; version: number; value: AnswerValue; deviceId: string };

/** 200 body of an autosave. */
export type AutosaveResponse = {
  revision: number;
  serverTime: string;
  deadline: string;
  results: AnswerResult[];
};

/** 200 body of a submit; replayed verbatim for the same Idempotency-Key and body. */
export type SubmitResponse = {
  submissionId: string;
  attemptId: string;
  submittedAt: string;
  source: "candidate" | "proctor" | "auto";
  digest: string;
  clientDigest: string | null;
  /** False when the device's digest differs from the frozen paper's: the proctor sees it too. */
  digestMatches: boolean | null;
  receipt: string;
  /**
   * The server's clock and the attempt's deadline when the submission was made (every sync response carries
   * both). A replay repeats them as they were, like the rest of the body.
   */
  serverTime: string;
  deadline: string;
};
