import { z } from "@/lib/shared/zod";

/** `POST /api/session` request body: a candidate's join token exchanged for a session. */
export const JoinSessionSchema = z.object({
  joinToken: z.string().trim().min(1).max(256),
});

/** `POST /api/staff/session` request body: staff sign-in. */
export const StaffSignInSchema = z.object({
  email: z
    .email()
    .max(320)
    .transform((email) => email.toLowerCase()),
  password: z.string().min(1).max(1_000),
});
export type StaffSignInInput = z.infer<typeof StaffSignInSchema>;
