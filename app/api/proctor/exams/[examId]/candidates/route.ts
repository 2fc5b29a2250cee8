import { json, route } from "@/lib/server/http/route";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { getCandidatesSnapshot } from "@/lib/server/live/get-candidates-snapshot";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";

/** Every candidate's live facts and the counters: what a dashboard loads first and after a lost stream. */
export const GET = route({ access: "proctor", params: ExamParamsSchema }, async ({ params, principal }) =>
  json(await getCandidatesSnapshot({ examId: params.examId, principal }), { headers: { "cache-control": "no-store" } }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

export const dynamic = "force-dynamic";
