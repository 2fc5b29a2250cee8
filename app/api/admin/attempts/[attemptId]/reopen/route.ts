import { z } from "zod";

import { reopenAttempt } from "@/lib/server/attempts/reopen-attempt";
import { optionalIdempotencyKey } from "@/lib/server/http/idempotency-key";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";

/**
 * An admin reopens a submitted attempt (ADR 017). With an Idempotency-Key a retry never reopens twice: it gets
 * the stored result with `Idempotent-Replayed: true`. The body's fields are checked by the operation, after
 * the attempt is found: an unknown id is a 404 whatever the body.
 */
export const POST = route(
  // z.unknown(): route() still requires a JSON body; its fields are the operation's to check, after the lookup.
  { access: "admin", params: AttemptParamsSchema, body: z.unknown() },
  async ({ params, body, principal, request }) => {
    const requestKey = optionalIdempotencyKey(request);
    const { response, isReplay } = await reopenAttempt({
      attemptId: params.attemptId,
      caller: principal,
      body,
      requestKey,
    });
    return json(response, { headers: isReplay ? { "Idempotent-Replayed": "true" } : {} });
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
