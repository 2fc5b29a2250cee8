import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { readCandidateResult } from "@/lib/server/results/candidate-result";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";

export const dynamic = "force-dynamic";

/** The candidate's own result, once they may see it (docs/results.md, "Release"); else 403 RESULTS_NOT_RELEASED. */
export const GET = route({ access: "candidate", params: AttemptParamsSchema }, async ({ params, principal }) =>
  json(await readCandidateResult({ attemptId: params.attemptId, enrollmentId: principal.enrollmentId }), {
    headers: { "Cache-Control": "no-store" },
  }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
