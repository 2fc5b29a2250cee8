import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { readExamStatistics } from "@/lib/server/results/read-exam-statistics";
import { AppError } from "@/lib/shared/errors";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { ExamStatisticsSchema } from "@/lib/shared/schemas/responses/results";

export const dynamic = "force-dynamic";

/** The exam's statistics over its scored papers (docs/results.md, "Statistics"). */
export const GET = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    doc: {
      operationId: "readExamStatistics",
      area: "admin",
      summary: "Per-question and per-exam statistics over the scored papers",
      description:
        "Facility, discrimination (item–rest correlation), score distribution, blanks and option frequencies per " +
        "question; mean, median, sample standard deviation, Cronbach's alpha and a histogram of totals per exam. " +
        "Undefined figures are null. Time per question is not reported: only each answer's last save time is kept.",
      responses: { 200: { description: "The statistics", schema: ExamStatisticsSchema } },
    },
  },
  async ({ params }) => {
    const statistics = await readExamStatistics(params.examId);
    if (!statistics) throw new AppError("NOT_FOUND", "Not found.");
    return json(statistics, { headers: { "Cache-Control": "no-store" } });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
