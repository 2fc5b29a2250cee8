import { startAttempt } from "@/lib/server/attempts/start-attempt";
import { json, route } from "@/lib/server/http/route";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";

/** Starts or resumes the candidate's single attempt: 201 when created, 200 when resumed. */
export const POST = route({ access: "candidate", params: ExamParamsSchema }, async ({ params, principal }) => {
  const { attempt, isNew } = await startAttempt({ examId: params.examId, candidate: principal });
  return json(attempt, { status: isNew ? 201 : 200 });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
