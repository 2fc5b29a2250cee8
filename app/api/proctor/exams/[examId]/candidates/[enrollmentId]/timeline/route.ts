import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { getCandidateTimeline } from "@/lib/server/timeline/get-candidate-timeline";
import { ExamCandidateParamsSchema } from "@/lib/shared/schemas/params";
import { CandidateTimelineSchema } from "@/lib/shared/schemas/responses/proctor";

export const dynamic = "force-dynamic";

/** One candidate's attempt as a timeline of short sentences, oldest first, for the dashboard's drawer. */
export const GET = route(
  {
    access: "proctor",
    params: ExamCandidateParamsSchema,
    doc: {
      operationId: "getCandidateTimeline",
      area: "proctor",
      summary: "One candidate's attempt as a timeline",
      responses: { 200: { description: "Entries, oldest first", schema: CandidateTimelineSchema } },
    },
  },
  async ({ params, principal }) =>
    json(await getCandidateTimeline({ examId: params.examId, enrollmentId: params.enrollmentId, viewer: principal }), {
      headers: { "Cache-Control": "no-store" },
    }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
