import { z } from "@/lib/shared/zod";

import { PASSWORD_MAX_LENGTH } from "../password-policy";
import { UuidSchema } from "./attempts";
import { InstantSchema } from "./instant";

const EmailSchema = z
  .email()
  .max(320)
  .transform((email) => email.toLowerCase());

export const StaffRoleSchema = z.enum(["admin", "proctor", "grader"]);
export type StaffRole = z.infer<typeof StaffRoleSchema>;

/** `POST /api/admin/staff`: a new account; the response carries its temporary password, once. */
export const CreateStaffSchema = z.object({
  email: EmailSchema,
  name: z.string().trim().min(1).max(200),
  role: StaffRoleSchema,
});
export type CreateStaffInput = z.infer<typeof CreateStaffSchema>;

/** `PATCH /api/admin/staff/{staffId}`: disable (its sessions end at once) or enable an account. */
export const UpdateStaffSchema = z.object({ disabled: z.boolean() });

/**
 * `POST /api/admin/staff/{staffId}/password-reset`. `passwordChangedAt` is the version the admin saw (from
 * the list); when someone changed the password since, the answer is 409 STAFF_CHANGED and nothing happens.
 */
export const ResetStaffPasswordSchema = z.object({ passwordChangedAt: z.iso.datetime().optional() });

/** `PUT /api/staff/password`: change one's own password. The policy is checked by the operation. */
export const ChangePasswordSchema = z.object({
  currentPassword: z.string().min(1).max(1_000),
  newPassword: z
    .string()
    .min(1)
    .max(PASSWORD_MAX_LENGTH * 4),
});

export const StaffParamsSchema = z.object({ staffId: UuidSchema });
/** A proctor or grader and the exam they are assigned to. */
export const ExamStaffParamsSchema = z.object({ examId: UuidSchema, staffId: UuidSchema });

/** One staff account as the admin API shows it. */
export type StaffAccount = {
  id: string;
  email: string;
  name: string;
  role: StaffRole;
  disabledAt: string | null;
  mustChangePassword: boolean;
  passwordChangedAt: string;
  createdAt: string;
  /** Titles and ids of the exams a proctor (to watch) or a grader (to mark) is assigned to. */
  exams: { id: string; title: string }[];
};

export const StaffAccountSchema = z.object({
  id: UuidSchema,
  email: z.string(),
  name: z.string(),
  role: StaffRoleSchema,
  disabledAt: InstantSchema.nullable(),
  mustChangePassword: z.boolean(),
  passwordChangedAt: InstantSchema.describe("send back as a password reset's `passwordChangedAt`"),
  createdAt: InstantSchema,
  exams: z.array(z.object({ id: UuidSchema, title: z.string() })).describe("the exams a proctor is assigned to"),
}) satisfies z.ZodType<StaffAccount>;

export const StaffWithPasswordSchema = z.object({
  account: StaffAccountSchema,
  temporaryPassword: z.string().nullable().describe("shown in this response only; changed at first sign-in"),
}) satisfies z.ZodType<{ account: StaffAccount; temporaryPassword: string | null }>;
