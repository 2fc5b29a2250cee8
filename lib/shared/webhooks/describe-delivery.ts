import type { WebhookAlerts, WebhookDelivery, WebhookEvent } from "../schemas/webhooks";

/** An event's key in the `webhooks` catalog (dots are paths there): "result.released" → "result_released". */
export type EventKey = "submission_created" | "result_released" | "result_updated";
export function eventKey(event: WebhookEvent): EventKey {
  return event.replace(".", "_") as EventKey;
}

/**
 * What is happening to a delivery, as a message of the `webhooks.deliveries` catalog and its values (times stay
 * instants here; the page formats them in the reader's zone). A pending delivery due now or without a time is
 * being sent; a dead one names why, with the receiver's status when a final answer refused it.
 */
export type DeliveryStateWords =
  | { key: "nextAttempt"; at: string }
  | { key: "sendingNow" }
  | { key: "deliveredAt"; at: string }
  | { key: "deadReasons.final_statusCode"; status: number }
  | { key: "deadReasons.final_status" }
  | { key: "deadReasons.attempts_exhausted"; count: number }
  | { key: "deadReasons.gone_410" }
  | { key: `cancelReasons.${NonNullable<WebhookDelivery["cancelReason"]>}` };

export function deliveryState(
  delivery: Pick<
    WebhookDelivery,
    "status" | "nextAttemptAt" | "deliveredAt" | "deadReason" | "cancelReason" | "lastStatus" | "createdAt"
  > & { attempts: number },
  now: number = Date.now(),
): DeliveryStateWords {
  switch (delivery.status) {
    case "pending":
      return delivery.nextAttemptAt && Date.parse(delivery.nextAttemptAt) > now
        ? { key: "nextAttempt", at: delivery.nextAttemptAt }
        : { key: "sendingNow" };
    case "delivered":
      return { key: "deliveredAt", at: delivery.deliveredAt ?? delivery.createdAt };
    case "dead":
      if (delivery.deadReason === "gone_410") return { key: "deadReasons.gone_410" };
      if (delivery.deadReason === "final_status") {
        return delivery.lastStatus === null
          ? { key: "deadReasons.final_status" }
          : { key: "deadReasons.final_statusCode", status: delivery.lastStatus };
      }
      return { key: "deadReasons.attempts_exhausted", count: delivery.attempts };
    case "cancelled":
      return { key: `cancelReasons.${delivery.cancelReason ?? "cancelled_by_staff"}` };
  }
}

/** What the admin header's badge counts: dead-lettered deliveries and paused receivers (never negative). */
export function attentionCount(alerts: WebhookAlerts): number {
  return Math.max(0, alerts.dead) + Math.max(0, alerts.openBreakers);
}
