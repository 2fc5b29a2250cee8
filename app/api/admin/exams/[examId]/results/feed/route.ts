import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { readResultsFeed } from "@/lib/server/webhooks/read-results-feed";
import { validationError } from "@/lib/shared/errors";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { ResultsFeedQuerySchema, ResultsFeedSchema } from "@/lib/shared/schemas/webhooks";

export const dynamic = "force-dynamic";

/** Every result version of the exam in order, after a cursor: how a receiver catches up without replays. */
export const GET = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    doc: {
      operationId: "readResultsFeed",
      area: "admin",
      summary: "Every result version, in order, after a cursor",
      description:
        "For a receiver catching up without replays: result versions in a stable order with a cursor each; pass " +
        "the last one seen as `after`. `next` is set while more follow. A version committed late never appears " +
        "behind a cursor already handed out.",
      query: ResultsFeedQuerySchema,
      responses: { 200: { description: "A page of result versions", schema: ResultsFeedSchema } },
      errors: ["VALIDATION_FAILED"],
    },
  },
  async ({ params, request }) => {
    const parsed = ResultsFeedQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!parsed.success) throw validationError(parsed.error, "query");
    return json(await readResultsFeed({ examId: params.examId, ...parsed.data }), {
      headers: { "Cache-Control": "no-store" },
    });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
