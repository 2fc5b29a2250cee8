import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { setResultsReleased } from "@/lib/server/results/release-results";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { ReleaseStateSchema } from "@/lib/shared/schemas/responses/results";

/** Releases the exam's results to its candidates (idempotent; docs/results.md, "Release"). */
export const POST = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    doc: {
      operationId: "releaseResults",
      area: "admin",
      summary: "Release the exam's results to its candidates",
      description: "Idempotent: releasing released results keeps the first release time.",
      responses: { 200: { description: "When the results were released", schema: ReleaseStateSchema } },
    },
  },
  async ({ params, principal }) =>
    json(await setResultsReleased({ examId: params.examId, released: true, caller: principal })),
);

/** Withdraws a release: candidates no longer see their results. */
export const DELETE = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    doc: {
      operationId: "withdrawResults",
      area: "admin",
      summary: "Withdraw the release",
      responses: { 200: { description: "Not released any more (releasedAt null)", schema: ReleaseStateSchema } },
    },
  },
  async ({ params, principal }) =>
    json(await setResultsReleased({ examId: params.examId, released: false, caller: principal })),
);

export const { GET, PUT, PATCH, OPTIONS } = methodsNotAllowed("POST", "DELETE");
