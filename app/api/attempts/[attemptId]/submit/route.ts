import { submitAttempt } from "@/lib/server/attempts/submit-attempt";
import { requiredIdempotencyKey } from "@/lib/server/http/idempotency-key";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";
import { SubmitSchema } from "@/lib/shared/schemas/sync";

/**
 * Idempotent submit: the same Idempotency-Key and body always get the same answer. Rate-limited on
 * the submit counters (never the autosave ones), counted and timed. A session this process knows is checked by
 * the statement that reads the paper (ADR 021).
 */
export const POST = route(
  {
    access: "candidate",
    params: AttemptParamsSchema,
    body: SubmitSchema,
    limit: "submit",
    observe: "submit",
    foldsSessionCheck: true,
  },
  async ({ params, body, principal, request }) => {
    const { response, isReplay } = await submitAttempt({
      attemptId: params.attemptId,
      candidate: principal,
      idempotencyKey: requiredIdempotencyKey(request),
      body,
    });
    return json(response, { headers: isReplay ? { "Idempotent-Replayed": "true" } : {} });
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
