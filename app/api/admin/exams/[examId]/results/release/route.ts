import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { setResultsReleased } from "@/lib/server/results/release-results";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";

/** Releases the exam's results to its candidates (idempotent; docs/results.md, "Release"). */
export const POST = route({ access: "admin", params: ExamParamsSchema }, async ({ params, principal }) =>
  json(await setResultsReleased({ examId: params.examId, released: true, caller: principal })),
);

/** Withdraws a release: candidates no longer see their results. */
export const DELETE = route({ access: "admin", params: ExamParamsSchema }, async ({ params, principal }) =>
  json(await setResultsReleased({ examId: params.examId, released: false, caller: principal })),
);

export const { GET, PUT, PATCH, OPTIONS } = methodsNotAllowed("POST", "DELETE");
