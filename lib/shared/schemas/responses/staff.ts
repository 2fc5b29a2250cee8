import { z } from "@/lib/shared/zod";

import { UuidSchema } from "@/lib/shared/schemas/attempts";
import { StaffRoleSchema, type StaffAccount } from "@/lib/shared/schemas/staff";

import { Instant } from "./common";

/**
 * Staff accounts, and the session of a staff member or a candidate. The 200/201 bodies as zod schemas, for the
 * routes' documentation (their `doc`, docs/api.md) and for clients that read them; each `satisfies` the type the
 * server builds its answer with, so the two cannot drift apart.
 */

const StaffAccountSchema = z.object({
  id: UuidSchema,
  email: z.string(),
  name: z.string(),
  role: StaffRoleSchema,
  disabledAt: Instant.nullable(),
  mustChangePassword: z.boolean(),
  passwordChangedAt: Instant.describe("send back as a password reset's `passwordChangedAt`"),
  createdAt: Instant,
  exams: z.array(z.object({ id: UuidSchema, title: z.string() })).describe("the exams a proctor is assigned to"),
}) satisfies z.ZodType<StaffAccount>;

export const StaffListSchema = z.object({ staff: z.array(StaffAccountSchema) }) satisfies z.ZodType<{
  staff: StaffAccount[];
}>;

export const StaffAccountResponseSchema = z.object({ account: StaffAccountSchema }) satisfies z.ZodType<{
  account: StaffAccount;
}>;

export const StaffWithPasswordSchema = z.object({
  account: StaffAccountSchema,
  temporaryPassword: z.string().nullable().describe("shown in this response only; changed at first sign-in"),
}) satisfies z.ZodType<{ account: StaffAccount; temporaryPassword: string | null }>;

export const CandidateSessionSchema = z.object({
  examId: UuidSchema,
  enrollmentId: UuidSchema,
  expiresAt: Instant,
});

export const StaffSessionSchema = z.object({
  role: StaffRoleSchema,
  mustChangePassword: z
    .boolean()
    .describe("the password is an admin's temporary one: only PUT /api/staff/password works until it changes"),
  expiresAt: Instant,
});
