import { listDisagreements } from "@/lib/server/grading/list-disagreements";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { AppError } from "@/lib/shared/errors";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { GradingDisagreementsSchema } from "@/lib/shared/schemas/responses/grading";

export const dynamic = "force-dynamic";

/** Double marks that differ and wait for an admin's final mark (docs/results.md, "Grading"). */
export const GET = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    doc: {
      operationId: "listGradingDisagreements",
      area: "admin",
      summary: "Double marks waiting to be settled",
      description:
        "Every (question, paper) whose first and second marks differ and that no final mark settles, with both " +
        "marks, in question and candidate-code order. Blind: names are null until the results are released. " +
        "Empty when the exam has no double marking.",
      responses: { 200: { description: "The disagreements", schema: GradingDisagreementsSchema } },
    },
  },
  async ({ params }) => {
    const disagreements = await listDisagreements(params);
    if (!disagreements) throw new AppError("NOT_FOUND", "Not found.");
    return json(disagreements, { headers: { "Cache-Control": "no-store" } });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
