import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { readWebhookAlerts } from "@/lib/server/webhooks/read-webhook-alerts";

export const dynamic = "force-dynamic";

/** For the admin header's badge: dead deliveries and breakers not closed. */
export const GET = route({ access: "admin" }, async () =>
  json(await readWebhookAlerts(), { headers: { "Cache-Control": "no-store" } }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
