import { getExamHealth } from "@/lib/server/exam-health/get-exam-health";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { ExamHealthSchema } from "@/lib/shared/schemas/responses/proctor";

export const dynamic = "force-dynamic";

/** The exam's loss rate, duplicate rate, p99s and 429s of the last hour, with one point per minute. */
export const GET = route(
  {
    access: "proctor",
    params: ExamParamsSchema,
    doc: {
      operationId: "getExamHealth",
      area: "proctor",
      summary: "The exam's sync health over the last hour",
      responses: { 200: { description: "Rates, p99s and one point per minute", schema: ExamHealthSchema } },
    },
  },
  async ({ params, principal }) =>
    json(await getExamHealth({ examId: params.examId, viewer: principal }), {
      headers: { "Cache-Control": "no-store" },
    }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
