import { z } from "zod";

import { LIMITS } from "../limits";
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from "../text";

export const CandidateInputSchema = z.object({
  name: z.string().trim().min(1).max(200).refine(isStorableText, UNSTORABLE_TEXT_MESSAGE),
  email: z
    .email()
    .max(320)
    .transform((email) => email.toLowerCase()),
  extraSeconds: z.number().int().min(0).max(LIMITS.maxExtraSeconds).default(0),
});

/** `POST /api/admin/exams/{examId}/candidates` request body. */
export const EnrollCandidatesSchema = z.object({
  candidates: z.array(CandidateInputSchema).min(1).max(LIMITS.maxCandidatesPerRequest),
});
export type EnrollCandidatesInput = z.infer<typeof EnrollCandidatesSchema>;
