import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { readExamStatistics } from "@/lib/server/results/read-exam-statistics";
import { AppError } from "@/lib/shared/errors";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";

export const dynamic = "force-dynamic";

/** The exam's statistics over its scored papers (docs/results.md, "Statistics"). */
export const GET = route({ access: "admin", params: ExamParamsSchema }, async ({ params }) => {
  const statistics = await readExamStatistics(params.examId);
  if (!statistics) throw new AppError("NOT_FOUND", "Not found.");
  return json(statistics, { headers: { "Cache-Control": "no-store" } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
