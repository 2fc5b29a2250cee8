import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { retryDelivery } from "@/lib/server/webhooks/retry-deliveries";
import { DeliveryParamsSchema, WebhookDeliverySchema } from "@/lib/shared/schemas/webhooks";

/** Sends a dead or cancelled delivery again, now, with the same webhook-id. */
export const POST = route(
  {
    access: "admin",
    params: DeliveryParamsSchema,
    doc: {
      operationId: "retryWebhookDelivery",
      area: "admin",
      summary: "Send a dead or cancelled delivery again",
      description: "Pending again and due now, with the same webhook-id. A pending or delivered one is 409.",
      responses: { 200: { description: "The delivery", schema: WebhookDeliverySchema } },
      errors: ["DELIVERY_NOT_RETRYABLE"],
    },
  },
  async ({ params, principal }) => json(await retryDelivery({ deliveryId: params.deliveryId, caller: principal })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
