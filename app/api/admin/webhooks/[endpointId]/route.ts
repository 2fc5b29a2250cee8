import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { deleteWebhookEndpoint } from "@/lib/server/webhooks/delete-webhook-endpoint";
import { updateWebhookEndpoint } from "@/lib/server/webhooks/update-webhook-endpoint";
import { UpdateWebhookSchema, WebhookEndpointParamsSchema, WebhookEndpointSchema } from "@/lib/shared/schemas/webhooks";

/** Changes a receiver's URL, events or enabled flag (enabling clears `disabledReason`). */
export const PATCH = route(
  {
    access: "admin",
    params: WebhookEndpointParamsSchema,
    body: UpdateWebhookSchema,
    doc: {
      operationId: "updateWebhookEndpoint",
      area: "admin",
      summary: "Change a webhook receiver",
      description: "URL, events or enabled flag; enabling an endpoint a 410 disabled clears `disabledReason`.",
      responses: { 200: { description: "The endpoint", schema: WebhookEndpointSchema } },
      errors: ["VALIDATION_FAILED"],
    },
  },
  async ({ params, body, principal }) =>
    json(await updateWebhookEndpoint({ endpointId: params.endpointId, input: body, caller: principal })),
);

/** Deletes a receiver; its pending deliveries are cancelled (`endpoint_deleted`), its history kept. */
export const DELETE = route(
  {
    access: "admin",
    params: WebhookEndpointParamsSchema,
    doc: {
      operationId: "deleteWebhookEndpoint",
      area: "admin",
      summary: "Delete a webhook receiver",
      description:
        "Its pending deliveries are cancelled (`endpoint_deleted`); its deliveries and attempts stay readable.",
      responses: { 204: { description: "Deleted" } },
    },
  },
  async ({ params, principal }) => {
    await deleteWebhookEndpoint({ endpointId: params.endpointId, caller: principal });
    return new Response(null, { status: 204 });
  },
);

export const { GET, POST, PUT, OPTIONS } = methodsNotAllowed("PATCH", "DELETE");
