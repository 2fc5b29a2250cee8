import { extendAttempt } from "@/lib/server/extensions/extend-attempt";
import { optionalIdempotencyKey } from "@/lib/server/http/idempotency-key";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";
import { ExtendSchema } from "@/lib/shared/schemas/proctor";

/**
 * Extra time for one candidate. With an Idempotency-Key, a retry never extends twice: it gets the stored
 * result with `Idempotent-Replayed: true`.
 */
export const POST = route(
  { access: "proctor", params: AttemptParamsSchema, body: ExtendSchema },
  async ({ params, body, principal, request }) => {
    const requestKey = optionalIdempotencyKey(request);
    const { response, isReplay } = await extendAttempt({ id: params.attemptId, caller: principal, body, requestKey });
    return json(response, { headers: isReplay ? { "Idempotent-Replayed": "true" } : {} });
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
