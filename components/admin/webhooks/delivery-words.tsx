"use client";

import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { useCallback } from "react";

import { formatInstant } from "@/lib/shared/format";
import type { DeliveryStatus, WebhookDelivery } from "@/lib/shared/schemas/webhooks";
import { deliveryState } from "@/lib/shared/webhooks/describe-delivery";

import styles from "./webhooks.module.css";

/** A delivery's status as a badge: words, never colour alone. */
export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  const t = useTranslations("webhooks.statuses");
  return (
    <span className={`badge ${styles[`status_${status}`]}`} data-status={status} data-testid="delivery-status">
      {t(status)}
    </span>
  );
}

/**
 * What happens to a delivery, in the reader's words: the next try or "being sent", when it was delivered, why
 * it is dead (with the receiver's status) or why it was cancelled. Times in the screen's zone.
 */
export function useDeliveryStateText(): (
  delivery: Parameters<typeof deliveryState>[0] & Pick<WebhookDelivery, "status">,
  /** When the delivery was read (ms): a next try before it is "being sent". */
  readAt: number,
) => string {
  const t = useTranslations("webhooks.deliveries");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  return useCallback(
    (delivery, readAt) => {
      const words = deliveryState(delivery, readAt);
      switch (words.key) {
        case "nextAttempt":
        case "deliveredAt":
          return t(words.key, { time: formatInstant(words.at, locale, timeZone) });
        case "deadReasons.final_statusCode":
          return t(words.key, { status: words.status });
        case "deadReasons.attempts_exhausted":
          return t(words.key, { count: words.count });
        default:
          return t(words.key);
      }
    },
    [t, locale, timeZone],
  );
}
