import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { listDeliveries } from "@/lib/server/webhooks/list-deliveries";
import { validationError } from "@/lib/shared/errors";
import { ListDeliveriesQuerySchema } from "@/lib/shared/schemas/webhooks";

export const dynamic = "force-dynamic";

/** Deliveries newest first, by status, endpoint and exam. */
export const GET = route({ access: "admin" }, async ({ request }) => {
  const parsed = ListDeliveriesQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw validationError(parsed.error, "query");
  return json(await listDeliveries(parsed.data), { headers: { "Cache-Control": "no-store" } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
