import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { decideLateAnswer } from "@/lib/server/results/late-answers";
import { LateAnswerDecisionSchema, LateAnswerParamsSchema } from "@/lib/shared/schemas/results";

/** Accept a late answer into the result, or reject it with a reason; once (docs/results.md, "Late answers"). */
export const POST = route(
  { access: "admin", params: LateAnswerParamsSchema, body: LateAnswerDecisionSchema },
  async ({ params, body, principal }) =>
    json(await decideLateAnswer({ ...params, input: body, caller: principal }), { status: 201 }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
