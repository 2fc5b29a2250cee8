import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { queueRegrade } from "@/lib/server/results/queue-regrade";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";

/** Scores every submitted paper again: queued now, scored by the results worker (docs/results.md, "Regrade"). */
export const POST = route({ access: "admin", params: ExamParamsSchema }, async ({ params, principal }) =>
  json(await queueRegrade({ examId: params.examId, caller: principal }), { status: 202 }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
