import { submitAttempt } from "@/lib/server/attempts/submit-attempt";
import { json, route } from "@/lib/server/http/route";
import { consumeSubmit } from "@/lib/server/limits/consume-sync-capacity";
import { observeSyncRequest } from "@/lib/server/metrics/observe-sync-request";
import { AppError } from "@/lib/shared/errors";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";
import { IdempotencyKeySchema, SubmitSchema } from "@/lib/shared/schemas/sync";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";

/**
 * Idempotent submit: the same Idempotency-Key and body always get the same answer. Rate-limited on
 * the submit counters (never the autosave ones), counted and timed.
 */
export const POST = observeSyncRequest(
  "submit",
  route(
    { access: "candidate", params: AttemptParamsSchema, body: SubmitSchema },
    async ({ params, body, principal, request }) => {
      await consumeSubmit(principal.enrollmentId);
      const header = request.headers.get("idempotency-key");
      if (header === null) throw new AppError("BAD_REQUEST", "The Idempotency-Key header is required.");
      const key = IdempotencyKeySchema.safeParse(header);
      if (!key.success)
        throw new AppError("BAD_REQUEST", "The Idempotency-Key header must be 1–255 printable ASCII characters.");

      const { response, isReplay } = await submitAttempt({
        attemptId: params.attemptId,
        candidate: principal,
        idempotencyKey: key.data,
        body,
      });
      return json(response, { headers: isReplay ? { "Idempotent-Replayed": "true" } : {} });
    },
  ),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
