import { z } from "zod";

import { extendAttempt } from "@/lib/server/extensions/extend-attempt";
import { optionalIdempotencyKey } from "@/lib/server/http/idempotency-key";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { IDEMPOTENT_REPLAYED } from "@/lib/server/http/route-doc";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";
import { ExtendSchema } from "@/lib/shared/schemas/proctor";
import { ExtendResponseSchema } from "@/lib/shared/schemas/responses/proctor";

/**
 * Extra time for one candidate. With an Idempotency-Key, a retry never extends twice: it gets the stored
 * result with `Idempotent-Replayed: true`. The body's fields are checked by the operation after the scope:
 * another exam's attempt is a 404 whatever the body.
 */
export const POST = route(
  // z.unknown(): route() still requires a JSON body; its fields are the operation's to check, after the scope.
  {
    access: "proctor",
    params: AttemptParamsSchema,
    body: z.unknown(),
    doc: {
      operationId: "extendAttempt",
      area: "proctor",
      summary: "Extra time for one candidate",
      description: "With an Idempotency-Key a retry never extends twice: it gets the stored result.",
      checkedBody: ExtendSchema,
      idempotencyKey: "optional",
      responses: {
        200: { description: "The new deadline", schema: ExtendResponseSchema, headers: IDEMPOTENT_REPLAYED },
      },
      errors: ["ALREADY_SUBMITTED", "IDEMPOTENCY_KEY_REUSED", "REQUEST_IN_PROGRESS"],
    },
  },
  async ({ params, body, principal, request }) => {
    const requestKey = optionalIdempotencyKey(request);
    const { response, isReplay } = await extendAttempt({ id: params.attemptId, caller: principal, body, requestKey });
    return json(response, { headers: isReplay ? { "Idempotent-Replayed": "true" } : {} });
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
