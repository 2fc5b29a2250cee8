import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { rotateWebhookSecret } from "@/lib/server/webhooks/rotate-webhook-secret";
import { WebhookEndpointParamsSchema } from "@/lib/shared/schemas/webhooks";

/** A new signing secret; the previous one keeps signing beside it until `previousSecretValidUntil`. */
export const POST = route({ access: "admin", params: WebhookEndpointParamsSchema }, async ({ params, principal }) =>
  json(await rotateWebhookSecret({ endpointId: params.endpointId, caller: principal })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
