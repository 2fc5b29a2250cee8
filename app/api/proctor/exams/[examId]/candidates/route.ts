import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { getCandidatesSnapshot } from "@/lib/server/live/get-candidates-snapshot";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { CandidatesSnapshotSchema } from "@/lib/shared/schemas/responses/proctor";

/** Every candidate's live facts and the counters: what a dashboard loads first and after a lost stream. */
export const GET = route(
  {
    access: "proctor",
    params: ExamParamsSchema,
    doc: {
      operationId: "getCandidatesSnapshot",
      area: "proctor",
      summary: "Every candidate's live status",
      description: "What a dashboard loads first, and again after a lost events stream.",
      responses: { 200: { description: "The snapshot", schema: CandidatesSnapshotSchema } },
    },
  },
  async ({ params, principal }) =>
    json(await getCandidatesSnapshot({ examId: params.examId, principal }), {
      headers: { "cache-control": "no-store" },
    }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

export const dynamic = "force-dynamic";
