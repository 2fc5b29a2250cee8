import { z } from "zod";

import { extendCandidates } from "@/lib/server/extensions/extend-candidates";
import { optionalIdempotencyKey } from "@/lib/server/http/idempotency-key";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { IDEMPOTENT_REPLAYED } from "@/lib/server/http/route-doc";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { BulkExtendSchema } from "@/lib/shared/schemas/proctor";
import { BulkExtendResponseSchema } from "@/lib/shared/schemas/responses/proctor";

/**
 * The same extra time for a selection of the exam's candidates; one result per candidate. With an
 * Idempotency-Key, a retry never extends anyone twice (`replayed: true` per candidate it had done, and
 * `Idempotent-Replayed: true` when it had done them all). The body's fields are checked by the operation
 * after the scope: an exam the caller may not see is a 404 whatever the body.
 */
export const POST = route(
  // z.unknown(): route() still requires a JSON body; its fields are the operation's to check, after the scope.
  {
    access: "proctor",
    params: ExamParamsSchema,
    body: z.unknown(),
    doc: {
      operationId: "extendCandidates",
      area: "proctor",
      summary: "Extra time for a selection of candidates",
      description:
        "One result per distinct enrollment id, in request order. With an Idempotency-Key a retry never " +
        "extends anyone twice.",
      checkedBody: BulkExtendSchema,
      idempotencyKey: "optional",
      responses: {
        200: {
          description: "One result per candidate",
          schema: BulkExtendResponseSchema,
          headers: IDEMPOTENT_REPLAYED,
        },
      },
      errors: ["IDEMPOTENCY_KEY_REUSED", "REQUEST_IN_PROGRESS"],
    },
  },
  async ({ params, body, principal, request }) => {
    const requestKey = optionalIdempotencyKey(request);
    const { results, isReplay } = await extendCandidates({
      examId: params.examId,
      caller: principal,
      body,
      requestKey,
    });
    return json({ results }, { headers: isReplay ? { "Idempotent-Replayed": "true" } : {} });
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
