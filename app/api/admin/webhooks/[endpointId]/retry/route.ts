import { z } from "zod";

import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { retryEndpointDeliveries } from "@/lib/server/webhooks/retry-deliveries";
import { RetryEndpointSchema, WebhookEndpointParamsSchema } from "@/lib/shared/schemas/webhooks";

/** Sends every dead or cancelled delivery of the receiver created since `since` again. */
export const POST = route(
  {
    access: "admin",
    params: WebhookEndpointParamsSchema,
    body: RetryEndpointSchema,
    doc: {
      operationId: "retryEndpointDeliveries",
      area: "admin",
      summary: "Send a receiver's failed deliveries again",
      description:
        "Every dead or cancelled delivery of the endpoint created since `since` goes back to pending, due now, " +
        "with the same webhook-id; its attempts are kept.",
      responses: { 200: { description: "How many went back", schema: z.object({ requeued: z.number().int() }) } },
      errors: ["VALIDATION_FAILED"],
    },
  },
  async ({ params, body, principal }) =>
    json(await retryEndpointDeliveries({ endpointId: params.endpointId, since: body.since, caller: principal })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
