import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { decideLateAnswer } from "@/lib/server/results/late-answers";
import { LateAnswerReviewSchema } from "@/lib/shared/schemas/responses/results";
import { LateAnswerDecisionSchema, LateAnswerParamsSchema } from "@/lib/shared/schemas/results";

/** Accept a late answer into the result, or reject it with a reason; once (docs/results.md, "Late answers"). */
export const POST = route(
  {
    access: "admin",
    params: LateAnswerParamsSchema,
    body: LateAnswerDecisionSchema,
    doc: {
      operationId: "decideLateAnswer",
      area: "admin",
      summary: "Accept a late answer into the result, or reject it with a reason",
      description:
        "Once per late answer (a second decision is 409 LATE_ANSWER_DECIDED). Accepting never changes the frozen " +
        "paper or its digest: the result gets a new version scoring the late value instead.",
      responses: { 201: { description: "The late answer with its decision", schema: LateAnswerReviewSchema } },
      errors: ["LATE_ANSWER_DECIDED"],
    },
  },
  async ({ params, body, principal }) =>
    json(await decideLateAnswer({ ...params, input: body, caller: principal }), { status: 201 }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
