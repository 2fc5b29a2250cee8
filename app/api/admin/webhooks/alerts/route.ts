import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { readWebhookAlerts } from "@/lib/server/webhooks/read-webhook-alerts";
import { WebhookAlertsSchema } from "@/lib/shared/schemas/webhooks";

export const dynamic = "force-dynamic";

/** For the admin header's badge: dead deliveries and breakers not closed. */
export const GET = route(
  {
    access: "admin",
    doc: {
      operationId: "readWebhookAlerts",
      area: "admin",
      summary: "Delivery alerts for the admin header",
      description: "Dead-lettered deliveries and circuit breakers not closed, over every exam.",
      responses: { 200: { description: "The counts", schema: WebhookAlertsSchema } },
    },
  },
  async () => json(await readWebhookAlerts(), { headers: { "Cache-Control": "no-store" } }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
