"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";

import { QueryProvider } from "@/components/proctor/query-provider";
import { readJson } from "@/lib/client/webhooks/read-json";
import { webhookKeys } from "@/lib/client/webhooks/query-keys";
import { formatNumber } from "@/lib/shared/format";
import { WebhookAlertsSchema } from "@/lib/shared/schemas/webhooks";
import { attentionCount } from "@/lib/shared/webhooks/describe-delivery";

import styles from "./deliveries-nav-link.module.css";

/** How often the header asks whether a delivery needs someone (issue 16: "a badge in the admin header"). */
const POLL_MS = 30_000;

/** The dead letter: where the badge leads. */
export const DEAD_DELIVERIES_HREF = "/admin/webhooks/deliveries?status=dead";

/**
 * The admin header's "Deliveries" link, with a count of dead-lettered deliveries and paused receivers when there
 * are any (its name says so: "Deliveries, 3 need attention"). The count is read every 30 seconds; while it cannot
 * be read (the API errs, the network is down) the badge shows nothing and the link stays as it is, so no page
 * breaks for it. Needs only the `common` messages, which every page has. Its own query client: the header sits
 * outside each page's.
 */
export function DeliveriesNavLink({ isCurrent }: { isCurrent: boolean }) {
  return (
    <QueryProvider>
      <DeliveriesLink isCurrent={isCurrent} />
    </QueryProvider>
  );
}

function DeliveriesLink({ isCurrent }: { isCurrent: boolean }) {
  const t = useTranslations("common");
  const locale = useLocale();
  const alerts = useQuery({
    queryKey: webhookKeys.alerts(),
    queryFn: () => readJson("/api/admin/webhooks/alerts", WebhookAlertsSchema),
    refetchInterval: POLL_MS,
    retry: false,
  });
  const count = alerts.data && !alerts.isError ? attentionCount(alerts.data) : 0;
  return (
    <Link
      href={DEAD_DELIVERIES_HREF}
      aria-current={isCurrent ? "page" : undefined}
      aria-label={count > 0 ? t("deliveriesAttention", { count }) : undefined}
      data-testid="deliveries-nav"
    >
      {t("navDeliveries")}
      {count > 0 ? (
        <span className={styles.count} aria-hidden="true" data-testid="deliveries-count">
          {formatNumber(count, locale)}
        </span>
      ) : null}
    </Link>
  );
}
