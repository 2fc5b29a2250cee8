import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { cancelDelivery } from "@/lib/server/webhooks/retry-deliveries";
import { DeliveryParamsSchema, WebhookDeliverySchema } from "@/lib/shared/schemas/webhooks";

/** Cancels a pending delivery (`cancelled_by_staff`). */
export const POST = route(
  {
    access: "admin",
    params: DeliveryParamsSchema,
    doc: {
      operationId: "cancelWebhookDelivery",
      area: "admin",
      summary: "Cancel a pending delivery",
      description: "Cancelled with `cancelled_by_staff`; anything not pending is 409.",
      responses: { 200: { description: "The delivery", schema: WebhookDeliverySchema } },
      errors: ["DELIVERY_NOT_CANCELLABLE"],
    },
  },
  async ({ params, principal }) => json(await cancelDelivery({ deliveryId: params.deliveryId, caller: principal })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
