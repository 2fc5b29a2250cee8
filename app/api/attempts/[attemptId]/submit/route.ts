import { submitAttempt } from "@/lib/server/attempts/submit-attempt";
import { requiredIdempotencyKey } from "@/lib/server/http/idempotency-key";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { jsonText, route } from "@/lib/server/http/route";
import { IDEMPOTENT_REPLAYED } from "@/lib/server/http/route-doc";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";
import { SubmitResponseSchema } from "@/lib/shared/schemas/responses/attempts";
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
    doc: {
      operationId: "submitAttempt",
      area: "candidate",
      summary: "Idempotent submit",
      description:
        "The same Idempotency-Key and body always get the same answer. A different key on a submitted attempt " +
        "is 409 ALREADY_SUBMITTED with the submission's id; clients treat it as done.",
      idempotencyKey: "required",
      responses: {
        200: {
          description: "The one submission and its receipt",
          schema: SubmitResponseSchema,
          headers: IDEMPOTENT_REPLAYED,
        },
      },
      errors: ["ALREADY_SUBMITTED", "DEADLINE_PASSED", "REQUEST_IN_PROGRESS", "IDEMPOTENCY_KEY_REUSED"],
    },
  },
  async ({ params, body, principal, request }) => {
    const { text, isReplay } = await submitAttempt({
      attemptId: params.attemptId,
      candidate: principal,
      idempotencyKey: requiredIdempotencyKey(request),
      body,
    });
    return jsonText(text, { headers: isReplay ? { "Idempotent-Replayed": "true" } : {} });
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
