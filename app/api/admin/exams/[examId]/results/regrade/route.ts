import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { queueRegrade } from "@/lib/server/results/queue-regrade";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { RegradeQueuedSchema } from "@/lib/shared/schemas/responses/results";

/** Scores every submitted paper again: queued now, scored by the results worker (docs/results.md, "Regrade"). */
export const POST = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    doc: {
      operationId: "regradeExam",
      area: "admin",
      summary: "Score every submitted paper again",
      description:
        "Queues every submitted paper (audited); the results worker scores them within about a second, and a paper " +
        "whose score does not change gets no new result version.",
      responses: { 202: { description: "How many papers were queued", schema: RegradeQueuedSchema } },
    },
  },
  async ({ params, principal }) =>
    json(await queueRegrade({ examId: params.examId, caller: principal }), { status: 202 }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
