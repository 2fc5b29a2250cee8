import { extendCandidates } from "@/lib/server/extensions/extend-candidates";
import { optionalIdempotencyKey } from "@/lib/server/http/idempotency-key";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { readJsonBody } from "@/lib/server/http/read-json-body";
import { json, route } from "@/lib/server/http/route";
import { AppError } from "@/lib/shared/errors";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";

/**
 * The same extra time for a selection of the exam's candidates; one result per candidate. With an
 * Idempotency-Key, a retry never extends anyone twice (`replayed: true` per candidate it had done, and
 * `Idempotent-Replayed: true` when it had done them all). The body's fields are checked by the operation
 * after the scope: an exam the caller may not see is a 404 whatever the body.
 */
export const POST = route(
  { access: "proctor", params: ExamParamsSchema },
  async ({ params, principal, request }) => {
    const body = await readJsonBody(request);
    if (body === undefined) throw new AppError("BAD_REQUEST", "The request needs a JSON body.");
    const requestKey = optionalIdempotencyKey(request);
    const { results, isReplay } = await extendCandidates({ examId: params.examId, caller: principal, body, requestKey });
    return json({ results }, { headers: isReplay ? { "Idempotent-Replayed": "true" } : {} });
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
