import { readGradingOverview } from "@/lib/server/grading/read-grading-overview";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { AppError } from "@/lib/shared/errors";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { GradingOverviewSchema } from "@/lib/shared/schemas/responses/grading";

export const dynamic = "force-dynamic";

/** The exam's grading per question: what waits for which marker (docs/results.md, "Grading"). */
export const GET = route(
  {
    access: "grader",
    params: ExamParamsSchema,
    doc: {
      operationId: "readGradingOverview",
      area: "admin",
      summary: "The exam's grading per question",
      description:
        "Per question, in position order: submitted papers, how many the rules leave to a person, how many of " +
        "those still wait for the first marker (and the second, with double marking), and how many double marks " +
        "disagree with no final mark. Counted from the answers and marks, so a paper whose result is still " +
        "being computed counts too. An admin, the bearer token, or a grader assigned to the exam.",
      responses: { 200: { description: "The overview", schema: GradingOverviewSchema } },
    },
  },
  async ({ params }) => {
    const overview = await readGradingOverview(params);
    if (!overview) throw new AppError("NOT_FOUND", "Not found.");
    return json(overview, { headers: { "Cache-Control": "no-store" } });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
