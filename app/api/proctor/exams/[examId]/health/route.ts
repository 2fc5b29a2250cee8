import { getExamHealth } from "@/lib/server/exam-health/get-exam-health";
import { json, route } from "@/lib/server/http/route";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";

export const dynamic = "force-dynamic";

/** The exam's loss rate, duplicate rate, p99s and 429s of the last hour, with one point per minute. */
export const GET = route({ access: "proctor", params: ExamParamsSchema }, async ({ params, principal }) =>
  json(await getExamHealth({ examId: params.examId, viewer: principal }), { headers: { "Cache-Control": "no-store" } }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
