import { z } from "@/lib/shared/zod";

import { EXPORT_FORMAT, type EmergencyExportFile, type EmergencyExportPayload } from "../emergency-export";
import { LIMITS } from "../limits";
import { UuidSchema } from "./attempts";
import { DeviceIdSchema, VersionSchema } from "./sync";

/** Schemas of the emergency export file and its payload (lib/shared/emergency-export.ts has the scheme). */

const Base64urlSchema = z.string().regex(/^[A-Za-z0-9_-]+$/, "must be base64url");

/** One answer inside the encrypted payload. Values are checked against the questions on upload. */
export const EmergencyExportAnswerSchema = z.object({
  questionId: UuidSchema,
  value: z.unknown().refine((value) => value !== undefined, "is required"),
  version: VersionSchema,
  /** The device's clock at the edit: kept with late answers, never trusted for order. */
  editedAt: z.iso.datetime({ offset: true }).optional(),
});

/** The plaintext inside the ciphertext. */
export const EmergencyExportPayloadSchema = z.object({
  v: z.literal(1),
  attemptId: UuidSchema,
  deviceId: DeviceIdSchema,
  createdAt: z.iso.datetime({ offset: true }),
  answers: z.array(EmergencyExportAnswerSchema).max(LIMITS.maxQuestionsPerExam),
}) satisfies z.ZodType<Omit<EmergencyExportPayload, "answers">>;

/** The file the candidate downloads and staff upload (`POST /api/admin/emergency-exports`). */
export const EmergencyExportFileSchema = z.object({
  format: z.literal(EXPORT_FORMAT, { message: `must be "${EXPORT_FORMAT}": this is not a Holdfast emergency file` }),
  v: z.literal(1, { message: "must be 1: this file was made by a version of Holdfast this server does not read" }),
  attemptId: UuidSchema,
  deviceId: DeviceIdSchema,
  /** Uncompressed P-256 point (65 bytes), base64url. */
  ephemeralPublicKey: Base64urlSchema.max(200),
  /** 12 bytes, base64url. */
  iv: Base64urlSchema.length(16, "must be 12 bytes of base64url"),
  /** AES-GCM output (ciphertext followed by the 16-byte tag), base64url. */
  ciphertext: Base64urlSchema.max(LIMITS.maxBodyBytes),
}) satisfies z.ZodType<EmergencyExportFile>;
