import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { listExamResults } from "@/lib/server/results/list-exam-results";
import { AppError } from "@/lib/shared/errors";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";

export const dynamic = "force-dynamic";

/** The release state and every enrolled candidate's current result (docs/results.md, "Results page"). */
export const GET = route({ access: "admin", params: ExamParamsSchema }, async ({ params }) => {
  const results = await listExamResults(params.examId);
  if (!results) throw new AppError("NOT_FOUND", "Not found.");
  return json(results, { headers: { "Cache-Control": "no-store" } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
