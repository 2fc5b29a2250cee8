import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { readCandidateResult } from "@/lib/server/results/candidate-result";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";
import { CandidateResultSchema } from "@/lib/shared/schemas/responses/results";

export const dynamic = "force-dynamic";

/** The candidate's own result, once they may see it (docs/results.md, "Release"); else 403 RESULTS_NOT_RELEASED. */
export const GET = route(
  {
    access: "candidate",
    params: AttemptParamsSchema,
    doc: {
      operationId: "getCandidateResult",
      area: "candidate",
      summary: "The candidate's own result, once they may see it",
      description:
        'Only once the exam\'s results are released (or, with resultsVisibility "immediately", once nothing ' +
        "waits for a person); before that 403 RESULTS_NOT_RELEASED, which says nothing of the result.",
      responses: { 200: { description: "The result", schema: CandidateResultSchema } },
      errors: ["RESULTS_NOT_RELEASED"],
    },
  },
  async ({ params, principal }) =>
    json(await readCandidateResult({ attemptId: params.attemptId, enrollmentId: principal.enrollmentId }), {
      headers: { "Cache-Control": "no-store" },
    }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
