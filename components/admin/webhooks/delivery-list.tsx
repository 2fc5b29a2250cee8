"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useLocale, useTimeZone, useTranslations } from "next-intl";

import { BreakableUrl } from "@/components/ui/breakable-url";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { failureOf, readJson } from "@/lib/client/webhooks/read-json";
import { webhookKeys } from "@/lib/client/webhooks/query-keys";
import { formatInstant, formatNumber } from "@/lib/shared/format";
import { DELIVERY_STATUSES, WebhookDeliveryListSchema, type DeliveryStatus } from "@/lib/shared/schemas/webhooks";
import { eventKey } from "@/lib/shared/webhooks/describe-delivery";

import subnav from "../subnav.module.css";

import { DeliveryStatusBadge, useDeliveryStateText } from "./delivery-words";
import styles from "./webhooks.module.css";

/** Deliveries move on their own (retries, the breaker): read again this often. */
const REFRESH_MS = 5_000;

export type DeliveryFilters = { status?: DeliveryStatus; endpointId?: string; examId?: string };

/** The page's address for these filters: the status tabs keep the endpoint and exam filters. */
export function deliveriesHref(filters: DeliveryFilters): string {
  const params = new URLSearchParams();
  if (filters.status) params.set("status", filters.status);
  if (filters.endpointId) params.set("endpointId", filters.endpointId);
  if (filters.examId) params.set("examId", filters.examId);
  const query = params.toString();
  return `/admin/webhooks/deliveries${query ? `?${query}` : ""}`;
}

/**
 * The deliveries (client component, needs the `webhooks` messages), newest first: tabs by status (links, so the
 * address says what is shown and the header's badge can link to the dead letter), a note when one endpoint or
 * exam is picked, and a table of event, endpoint, status, attempts and what happens next in words, each row
 * opening the delivery.
 */
export function DeliveryList({ filters }: { filters: DeliveryFilters }) {
  const t = useTranslations("webhooks");
  const describe = useDescribeFailure();
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  const stateText = useDeliveryStateText();

  const params = new URLSearchParams();
  if (filters.status) params.set("status", filters.status);
  if (filters.endpointId) params.set("endpointId", filters.endpointId);
  if (filters.examId) params.set("examId", filters.examId);
  const query = useQuery({
    queryKey: webhookKeys.deliveries(filters),
    queryFn: () => readJson(`/api/admin/webhooks/deliveries?${params.toString()}`, WebhookDeliveryListSchema),
    refetchInterval: REFRESH_MS,
  });
  const deliveries = query.data?.deliveries;

  const tabs: { status: DeliveryStatus | undefined; label: string }[] = [
    { status: undefined, label: t("deliveries.all") },
    ...DELIVERY_STATUSES.map((status) => ({ status, label: t(`statuses.${status}`) })),
  ];

  return (
    <>
      <nav aria-label={t("deliveries.filterLabel")} className={`${subnav.subnav} ${styles.filters}`}>
        <ul>
          {tabs.map(({ status, label }) => (
            <li key={status ?? "all"}>
              <Link
                href={deliveriesHref({ ...filters, status })}
                aria-current={filters.status === status ? "page" : undefined}
              >
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {filters.endpointId || filters.examId ? (
        <p className={styles.filterNote}>
          <span>{filters.endpointId ? t("deliveries.onlyEndpoint") : t("deliveries.onlyExam")}</span>
          <Link href={deliveriesHref({ status: filters.status })}>{t("deliveries.showAll")}</Link>
        </p>
      ) : null}
      <p className="muted">{t("deliveries.refreshNote")}</p>
      {query.error ? (
        <p className="form-error" role="alert">
          {t("deliveries.loadFailed", { reason: describe(failureOf(query.error)) })}
        </p>
      ) : null}
      {deliveries === undefined ? null : deliveries.length === 0 ? (
        <p className="muted" data-testid="deliveries-empty">
          {t("deliveries.empty")}
        </p>
      ) : (
        <div className="table-wrap" role="region" aria-label={t("deliveries.tableLabel")} tabIndex={0}>
          <table className="data" data-testid="deliveries">
            <thead>
              <tr>
                <th scope="col">{t("deliveries.event")}</th>
                <th scope="col">{t("deliveries.exam")}</th>
                <th scope="col">{t("deliveries.candidate")}</th>
                <th scope="col">{t("deliveries.endpoint")}</th>
                <th scope="col">{t("deliveries.status")}</th>
                <th scope="col" className="num">
                  {t("deliveries.attempts")}
                </th>
                <th scope="col">{t("deliveries.state")}</th>
                <th scope="col">{t("deliveries.created")}</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.id} data-delivery={delivery.id}>
                  <th scope="row">
                    <Link href={`/admin/webhooks/deliveries/${encodeURIComponent(delivery.id)}`}>
                      {t(`eventNames.${eventKey(delivery.eventType)}`)}
                      <br />
                      <span className={styles.idCell}>{delivery.id}</span>
                    </Link>
                  </th>
                  <td>
                    <Link href={`/admin/exams/${encodeURIComponent(delivery.examId)}/webhooks`}>
                      {delivery.examTitle}
                    </Link>
                  </td>
                  <td>{delivery.candidateName ?? <span className="muted">{t("deliveries.noCandidate")}</span>}</td>
                  <td className={styles.url}>
                    <BreakableUrl url={delivery.endpointUrl} />
                  </td>
                  <td>
                    <DeliveryStatusBadge status={delivery.status} />
                  </td>
                  <td className="num">{formatNumber(delivery.attempts, locale)}</td>
                  <td data-testid="delivery-state">{stateText(delivery, query.dataUpdatedAt)}</td>
                  <td>{formatInstant(delivery.createdAt, locale, timeZone)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
