import { readGradingQueue } from "@/lib/server/grading/grading-queue";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { AppError, validationError } from "@/lib/shared/errors";
import { GradingQuestionParamsSchema, GradingQueueQuerySchema } from "@/lib/shared/schemas/grading";

export const dynamic = "force-dynamic";

/** One question's grading queue, blind (docs/results.md, "Grading"). `?marker=first|second|final`. */
export const GET = route(
  { access: "grader", params: GradingQuestionParamsSchema },
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
