import { readGradingOverview } from "@/lib/server/grading/read-grading-overview";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { AppError } from "@/lib/shared/errors";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";

export const dynamic = "force-dynamic";

/** The exam's grading per question: what waits for which marker (docs/results.md, "Grading"). */
export const GET = route({ access: "grader", params: ExamParamsSchema }, async ({ params }) => {
  const overview = await readGradingOverview(params);
  if (!overview) throw new AppError("NOT_FOUND", "Not found.");
  return json(overview, { headers: { "Cache-Control": "no-store" } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
