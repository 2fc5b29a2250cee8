import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { deleteWebhookEndpoint } from "@/lib/server/webhooks/delete-webhook-endpoint";
import { updateWebhookEndpoint } from "@/lib/server/webhooks/update-webhook-endpoint";
import { UpdateWebhookSchema, WebhookEndpointParamsSchema } from "@/lib/shared/schemas/webhooks";

/** Changes a receiver's URL, events or enabled flag (enabling clears `disabledReason`). */
export const PATCH = route(
  { access: "admin", params: WebhookEndpointParamsSchema, body: UpdateWebhookSchema },
  async ({ params, body, principal }) =>
    json(await updateWebhookEndpoint({ endpointId: params.endpointId, input: body, caller: principal })),
);

/** Deletes a receiver; its pending deliveries are cancelled (`endpoint_deleted`), its history kept. */
export const DELETE = route({ access: "admin", params: WebhookEndpointParamsSchema }, async ({ params, principal }) => {
  await deleteWebhookEndpoint({ endpointId: params.endpointId, caller: principal });
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, OPTIONS } = methodsNotAllowed("PATCH", "DELETE");
