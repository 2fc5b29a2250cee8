import { readGradingQueue } from "@/lib/server/grading/grading-queue";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { AppError, validationError } from "@/lib/shared/errors";
import { GradingQuestionParamsSchema, GradingQueueQuerySchema } from "@/lib/shared/schemas/grading";
import { GradingQueueSchema } from "@/lib/shared/schemas/responses/grading";

export const dynamic = "force-dynamic";

/** One question's grading queue, blind (docs/results.md, "Grading"). `?marker=first|second|final`. */
export const GET = route(
  {
    access: "grader",
    params: GradingQuestionParamsSchema,
    doc: {
      operationId: "readGradingQueue",
      area: "admin",
      summary: "One question's grading queue (blind)",
      description:
        "An admin, the bearer token, or a grader assigned to the exam (anyone else is 403). " +
        "Every submitted paper's answer to the question, in candidate-code order, with how the result decides it " +
        "now and the marks the given `marker` may see (first and second markers see only their own). Names are " +
        "null until the exam's results are released. `final` (both marks, to settle) is an admin's: a grader " +
        "gets 403.",
      query: GradingQueueQuerySchema,
      responses: { 200: { description: "The queue", schema: GradingQueueSchema } },
    },
  },
  async ({ params, request, principal }) => {
    const query = GradingQueueQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!query.success) throw validationError(query.error, "query");
    // The final view shows both markers' marks: it is for the admin who settles.
    if (query.data.marker === "final" && principal.kind === "staff" && principal.role !== "admin") {
      throw new AppError("FORBIDDEN", "Only an admin settles a disagreement between markers.");
    }
    const queue = await readGradingQueue({ ...params, marker: query.data.marker });
    if (!queue) throw new AppError("NOT_FOUND", "Not found.");
    return json(queue, { headers: { "Cache-Control": "no-store" } });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
