import { z } from "zod";

import { updateCandidate } from "@/lib/server/enrollments/update-candidate";
import type { ExtraTimeChange } from "@/lib/server/extensions/extend-candidate";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { AppError } from "@/lib/shared/errors";
import { UpdateCandidateSchema } from "@/lib/shared/schemas/enrollments";
import { ExamCandidateParamsSchema } from "@/lib/shared/schemas/params";
import { CandidateExtraTimeSchema as ExtraTimeSchema } from "@/lib/shared/schemas/responses/enrollments";

/** The 200 body, for the documentation (it `satisfies` what the operation returns); the page parses with it too. */
const CandidateExtraTimeSchema = ExtraTimeSchema satisfies z.ZodType<{
  outcome: Exclude<ExtraTimeChange["outcome"], "already_submitted">;
  extraSeconds: number;
  deadline: string | null;
}>;

/**
 * Sets a candidate's total extra time (accommodation), before or during the exam: during it the deadline
 * moves by the difference, as a proctor's extension does (docs/admin-api.md).
 */
export const PATCH = route(
  {
    access: "admin",
    params: ExamCandidateParamsSchema,
    body: UpdateCandidateSchema,
    doc: {
      operationId: "updateCandidate",
      area: "admin",
      summary: "Set a candidate's extra time",
      description:
        "The candidate's total extra time (an accommodation), before or during the exam: during it the deadline " +
        "moves by the difference, as a proctor's extension does. Once started it can be raised, not lowered (422 VALIDATION_FAILED).",
      responses: { 200: { description: "What changed", schema: CandidateExtraTimeSchema } },
      errors: ["ALREADY_SUBMITTED"],
    },
  },
  async ({ params, body, principal }) => {
    const change = await updateCandidate({ ...params, input: body, caller: principal });
    if (change.outcome === "already_submitted") {
      throw new AppError("ALREADY_SUBMITTED", "This candidate has submitted; their extra time can no longer change.");
    }
    return json({
      outcome: change.outcome,
      extraSeconds: body.extraSeconds,
      deadline: change.outcome === "extended" ? change.deadline.toISOString() : null,
    });
  },
);

export const { GET, POST, PUT, DELETE, OPTIONS } = methodsNotAllowed("PATCH");
