import { startAttempt } from "@/lib/server/attempts/start-attempt";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { AttemptViewSchema } from "@/lib/shared/schemas/responses/attempts";

/** Starts or resumes the candidate's single attempt: 201 when created, 200 when resumed. */
export const POST = route(
  {
    access: "candidate",
    params: ExamParamsSchema,
    doc: {
      operationId: "startAttempt",
      area: "candidate",
      summary: "Start or resume the candidate's attempt",
      description: "Idempotent: one attempt per candidate per exam.",
      responses: {
        200: { description: "Resumed", schema: AttemptViewSchema },
        201: { description: "Started", schema: AttemptViewSchema },
      },
      errors: ["EXAM_NOT_OPEN", "EXAM_CLOSED"],
    },
  },
  async ({ params, principal }) => {
    const { attempt, isNew } = await startAttempt({ examId: params.examId, candidate: principal });
    return json(attempt, { status: isNew ? 201 : 200 });
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
