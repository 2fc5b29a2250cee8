import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { DeliveryAttempt, WebhookDelivery } from "@/lib/shared/schemas/webhooks";

import { readAttempts, readDeliveries, withoutPayload } from "./webhook-views";

/** Deliveries newest first, filtered (GET /api/admin/webhooks/deliveries). */
export async function listDeliveries(filter: {
  status?: WebhookDelivery["status"];
  endpointId?: string;
  examId?: string;
  limit: number;
}): Promise<{ deliveries: WebhookDelivery[] }> {
  const rows = await readDeliveries(filter);
  return { deliveries: rows.map(withoutPayload) };
}

/** One delivery with its payload and every try; `attempts` is the list, `attemptCount` the number. */
export async function getDelivery(options: {
  deliveryId: string;
}): Promise<
  Omit<WebhookDelivery, "attempts"> & { payload: unknown; attempts: DeliveryAttempt[]; attemptCount: number }
> {
  const [delivery] = await readDeliveries({ deliveryId: options.deliveryId });
  if (!delivery) throw new AppError("NOT_FOUND", "Not found.");
  const { attempts: attemptCount, ...rest } = delivery;
  return { ...rest, attempts: await readAttempts(options.deliveryId), attemptCount };
}
