import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { getDelivery } from "@/lib/server/webhooks/list-deliveries";
import { DeliveryParamsSchema } from "@/lib/shared/schemas/webhooks";

export const dynamic = "force-dynamic";

/** One delivery with its payload and every try. */
export const GET = route({ access: "admin", params: DeliveryParamsSchema }, async ({ params }) =>
  json(await getDelivery({ deliveryId: params.deliveryId }), { headers: { "Cache-Control": "no-store" } }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
