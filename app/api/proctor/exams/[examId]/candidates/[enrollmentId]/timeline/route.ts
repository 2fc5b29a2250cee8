import { json, route } from "@/lib/server/http/route";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { getCandidateTimeline } from "@/lib/server/timeline/get-candidate-timeline";
import { ExamCandidateParamsSchema } from "@/lib/shared/schemas/params";

export const dynamic = "force-dynamic";

/** One candidate's attempt as a timeline of short sentences, oldest first, for the dashboard's drawer. */
export const GET = route({ access: "proctor", params: ExamCandidateParamsSchema }, async ({ params, principal }) =>
  json(await getCandidateTimeline({ examId: params.examId, enrollmentId: params.enrollmentId, viewer: principal }), {
    headers: { "Cache-Control": "no-store" },
  }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
