import { updateCandidate } from "@/lib/server/enrollments/update-candidate";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { AppError } from "@/lib/shared/errors";
import { UpdateCandidateSchema } from "@/lib/shared/schemas/enrollments";
import { ExamCandidateParamsSchema } from "@/lib/shared/schemas/params";

/**
 * Sets a candidate's total extra time (accommodation), before or during the exam: during it the deadline
 * moves by the difference, as a proctor's extension does (docs/admin-api.md).
 */
export const PATCH = route(
  { access: "admin", params: ExamCandidateParamsSchema, body: UpdateCandidateSchema },
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
