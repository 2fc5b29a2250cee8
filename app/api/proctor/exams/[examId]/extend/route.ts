import { extendCandidates } from "@/lib/server/extensions/extend-candidates";
import { optionalIdempotencyKey } from "@/lib/server/http/idempotency-key";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { BulkExtendSchema } from "@/lib/shared/schemas/proctor";

/**
 * The same extra time for a selection of the exam's candidates; one result per candidate. With an
 * Idempotency-Key, a retry never extends anyone twice (`replayed: true` per candidate it had done, and
 * `Idempotent-Replayed: true` when it had done them all).
 */
export const POST = route(
  { access: "proctor", params: ExamParamsSchema, body: BulkExtendSchema },
  async ({ params, body, principal, request }) => {
    const requestKey = optionalIdempotencyKey(request);
    const { results, isReplay } = await extendCandidates({
      examId: params.examId,
      caller: principal,
      enrollmentIds: body.enrollmentIds,
      seconds: body.seconds,
      reason: body.reason,
      requestKey,
    });
    return json({ results }, { headers: isReplay ? { "Idempotent-Replayed": "true" } : {} });
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
