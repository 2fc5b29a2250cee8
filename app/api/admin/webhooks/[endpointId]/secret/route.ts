import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { rotateWebhookSecret } from "@/lib/server/webhooks/rotate-webhook-secret";
import { RotatedSecretSchema, WebhookEndpointParamsSchema } from "@/lib/shared/schemas/webhooks";

/** A new signing secret; the previous one keeps signing beside it until `previousSecretValidUntil`. */
export const POST = route(
  {
    access: "admin",
    params: WebhookEndpointParamsSchema,
    doc: {
      operationId: "rotateWebhookSecret",
      area: "admin",
      summary: "Rotate a receiver's signing secret",
      description:
        "A new secret, shown only here. Until `previousSecretValidUntil` (24 hours) both the old and the new secret " +
        "sign every delivery: two signatures in `webhook-signature`, space-separated.",
      responses: { 200: { description: "The new secret", schema: RotatedSecretSchema } },
    },
  },
  async ({ params, principal }) =>
    json(await rotateWebhookSecret({ endpointId: params.endpointId, caller: principal })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
