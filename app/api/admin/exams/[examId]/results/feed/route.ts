import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { readResultsFeed } from "@/lib/server/webhooks/read-results-feed";
import { validationError } from "@/lib/shared/errors";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { ResultsFeedQuerySchema } from "@/lib/shared/schemas/webhooks";

export const dynamic = "force-dynamic";

/** Every result version of the exam in order, after a cursor: how a receiver catches up without replays. */
export const GET = route({ access: "admin", params: ExamParamsSchema }, async ({ params, request }) => {
  const parsed = ResultsFeedQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw validationError(parsed.error, "query");
  return json(await readResultsFeed({ examId: params.examId, ...parsed.data }), {
    headers: { "Cache-Control": "no-store" },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
