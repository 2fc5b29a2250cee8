import { z } from "zod";

import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { listDeliveries } from "@/lib/server/webhooks/list-deliveries";
import { validationError } from "@/lib/shared/errors";
import { ListDeliveriesQuerySchema, WebhookDeliverySchema } from "@/lib/shared/schemas/webhooks";

export const dynamic = "force-dynamic";

/** Deliveries newest first, by status, endpoint and exam. */
export const GET = route(
  {
    access: "admin",
    doc: {
      operationId: "listWebhookDeliveries",
      area: "admin",
      summary: "Webhook deliveries",
      description: "Newest first, by status, endpoint and exam (`limit` 1–500, default 100).",
      query: ListDeliveriesQuerySchema,
      responses: {
        200: { description: "The deliveries", schema: z.object({ deliveries: z.array(WebhookDeliverySchema) }) },
      },
      errors: ["VALIDATION_FAILED"],
    },
  },
  async ({ request }) => {
    const parsed = ListDeliveriesQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!parsed.success) throw validationError(parsed.error, "query");
    return json(await listDeliveries(parsed.data), { headers: { "Cache-Control": "no-store" } });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
