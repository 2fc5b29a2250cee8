import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { getDelivery } from "@/lib/server/webhooks/list-deliveries";
import { DeliveryParamsSchema, WebhookDeliveryDetailSchema } from "@/lib/shared/schemas/webhooks";

export const dynamic = "force-dynamic";

/** One delivery with its payload and every try. */
export const GET = route(
  {
    access: "admin",
    params: DeliveryParamsSchema,
    doc: {
      operationId: "getWebhookDelivery",
      area: "admin",
      summary: "One delivery with its payload and every try",
      description:
        "`attempts` lists every request made (time, status, latency, the first 500 characters of the answer); " +
        "`attemptCount` is their number in the current run (a manual retry starts it again).",
      responses: { 200: { description: "The delivery", schema: WebhookDeliveryDetailSchema } },
    },
  },
  async ({ params }) =>
    json(await getDelivery({ deliveryId: params.deliveryId }), { headers: { "Cache-Control": "no-store" } }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
