import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { retryDelivery } from "@/lib/server/webhooks/retry-deliveries";
import { DeliveryParamsSchema } from "@/lib/shared/schemas/webhooks";

/** Sends a dead or cancelled delivery again, now, with the same webhook-id. */
export const POST = route({ access: "admin", params: DeliveryParamsSchema }, async ({ params, principal }) =>
  json(await retryDelivery({ deliveryId: params.deliveryId, caller: principal })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
