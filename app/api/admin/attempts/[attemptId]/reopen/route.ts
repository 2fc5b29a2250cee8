import { z } from "zod";

import { reopenAttempt } from "@/lib/server/attempts/reopen-attempt";
import { optionalIdempotencyKey } from "@/lib/server/http/idempotency-key";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { IDEMPOTENT_REPLAYED } from "@/lib/server/http/route-doc";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";
import { ReopenSchema } from "@/lib/shared/schemas/reopen";
import { ReopenResponseSchema } from "@/lib/shared/schemas/responses/proctor";

/**
 * An admin reopens a submitted attempt (ADR 017). With an Idempotency-Key a retry never reopens twice: it gets
 * the stored result with `Idempotent-Replayed: true`. The body's fields are checked by the operation, after
 * the attempt is found: an unknown id is a 404 whatever the body.
 */
export const POST = route(
  // z.unknown(): route() still requires a JSON body; its fields are the operation's to check, after the lookup.
  {
    access: "admin",
    params: AttemptParamsSchema,
    body: z.unknown(),
    doc: {
      operationId: "reopenAttempt",
      area: "admin",
      summary: "Reopen a submitted attempt",
      description:
        "Unfreezes the paper with `seconds` of new time (now by the database's clock, capped at the exam's " +
        "closesAt), within the exam's window only. The submission and its receipt move to the attempt's " +
        "submission history, never deleted; the next submit creates version + 1. With an Idempotency-Key a " +
        "retry never reopens twice: it gets the stored result.",
      checkedBody: ReopenSchema,
      idempotencyKey: "optional",
      responses: {
        200: {
          description: "The attempt is in progress again",
          schema: ReopenResponseSchema,
          headers: IDEMPOTENT_REPLAYED,
        },
      },
      errors: ["NOT_SUBMITTED", "EXAM_CLOSED", "IDEMPOTENCY_KEY_REUSED", "REQUEST_IN_PROGRESS"],
    },
  },
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
