import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { listLateAnswers } from "@/lib/server/results/late-answers";
import { AppError } from "@/lib/shared/errors";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { LateAnswerListSchema } from "@/lib/shared/schemas/responses/results";

export const dynamic = "force-dynamic";

/** The exam's late answers beside the frozen ones, with decisions (docs/results.md, "Late answers"). */
export const GET = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    doc: {
      operationId: "listLateAnswers",
      area: "admin",
      summary: "The exam's late answers beside the frozen ones",
      responses: { 200: { description: "Oldest first, with any decision", schema: LateAnswerListSchema } },
    },
  },
  async ({ params }) => {
    const lateAnswers = await listLateAnswers(params.examId);
    if (!lateAnswers) throw new AppError("NOT_FOUND", "Not found.");
    return json({ lateAnswers }, { headers: { "Cache-Control": "no-store" } });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
