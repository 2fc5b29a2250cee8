import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { requestLocale } from "@/lib/server/http/request-locale";
import { json, route } from "@/lib/server/http/route";
import { listExamResults } from "@/lib/server/results/list-exam-results";
import { AppError } from "@/lib/shared/errors";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { ExamResultsSchema } from "@/lib/shared/schemas/responses/results";

export const dynamic = "force-dynamic";

/** The release state and every enrolled candidate's current result (docs/results.md, "Results page"). */
export const GET = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    doc: {
      operationId: "listExamResults",
      area: "admin",
      summary: "The release state and every enrolled candidate's current result",
      description:
        "By name in the reader's order (the holdfast_locale cookie or Accept-Language), then email: status (not_started, in_progress, submitted), the current score (null until the " +
        "paper is scored) and whether it is graded (no answer waits for a person).",
      responses: { 200: { description: "The exam's results", schema: ExamResultsSchema } },
    },
  },
  async ({ params, request }) => {
    const results = await listExamResults(params.examId, requestLocale(request));
    if (!results) throw new AppError("NOT_FOUND", "Not found.");
    return json(results, { headers: { "Cache-Control": "no-store" } });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
