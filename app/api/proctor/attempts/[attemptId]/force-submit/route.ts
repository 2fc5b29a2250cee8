import { z } from "zod";

import { forceSubmitAttempt } from "@/lib/server/attempts/force-submit-attempt";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";
import { ForceSubmitSchema } from "@/lib/shared/schemas/proctor-actions";
import { ForceSubmitResponseSchema } from "@/lib/shared/schemas/responses/proctor";

/**
 * Submits the attempt on the candidate's behalf with what the server holds. Idempotent without a key: an
 * attempt already submitted (by anyone) answers 200 with that submission and `alreadySubmitted: true`.
 * The body is optional (`{ "reason" }`, or nothing), and its fields are checked by the operation after the
 * scope: another exam's attempt is a 404 whatever the body.
 */
export const POST = route(
  {
    access: "proctor",
    params: AttemptParamsSchema,
    body: z.unknown(),
    isBodyOptional: true,
    admission: "submit",
    doc: {
      operationId: "forceSubmitAttempt",
      area: "proctor",
      summary: "Submit on the candidate's behalf",
      description:
        "Submits what the server holds. Idempotent without a key: an attempt already submitted answers 200 " +
        "with that submission and `alreadySubmitted: true`. The body may be empty.",
      checkedBody: ForceSubmitSchema,
      responses: { 200: { description: "The submission", schema: ForceSubmitResponseSchema } },
      errors: ["NOT_STARTED"],
    },
  },
  async ({ params, principal, body }) =>
    json(await forceSubmitAttempt({ id: params.attemptId, caller: principal, body: body ?? {} })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
