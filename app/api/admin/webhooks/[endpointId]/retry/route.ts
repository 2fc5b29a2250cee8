import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { retryEndpointDeliveries } from "@/lib/server/webhooks/retry-deliveries";
import { RetryEndpointSchema, WebhookEndpointParamsSchema } from "@/lib/shared/schemas/webhooks";

/** Sends every dead or cancelled delivery of the receiver created since `since` again. */
export const POST = route(
  { access: "admin", params: WebhookEndpointParamsSchema, body: RetryEndpointSchema },
  async ({ params, body, principal }) =>
    json(await retryEndpointDeliveries({ endpointId: params.endpointId, since: body.since, caller: principal })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
