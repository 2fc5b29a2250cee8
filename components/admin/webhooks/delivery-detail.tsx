"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { useState } from "react";

import { useConfirm } from "@/components/confirm-dialog";
import { BreakableUrl } from "@/components/ui/breakable-url";
import { FormError, FormStatus } from "@/components/ui/form-error";
import { useApiAction } from "@/components/ui/use-action";
import { callApi } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { failureOf, readJson } from "@/lib/client/webhooks/read-json";
import { webhookKeys } from "@/lib/client/webhooks/query-keys";
import { formatInstant, formatNumber } from "@/lib/shared/format";
import { WebhookDeliveryDetailSchema } from "@/lib/shared/schemas/webhooks";
import { eventKey } from "@/lib/shared/webhooks/describe-delivery";

import { DeliveryStatusBadge, useDeliveryStateText } from "./delivery-words";
import styles from "./webhooks.module.css";

/** A pending delivery is about to change: read it often; a settled one seldom. */
const REFRESH_PENDING_MS = 2_000;
const REFRESH_SETTLED_MS = 15_000;

/**
 * One delivery (client component, needs the `webhooks` messages): its webhook-id, event, endpoint, status and what
 * happens next, the payload as pretty JSON (text, never markup), every attempt with its time, the receiver's
 * status, the time taken, the outcome in words and the start of the answer (text); Retry for a dead or cancelled
 * one, Cancel (confirmed) for a pending one. The result of each is said beside the buttons; a 409 in the reader's
 * language.
 */
export function DeliveryDetail({ deliveryId }: { deliveryId: string }) {
  const t = useTranslations("webhooks");
  const describe = useDescribeFailure();
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  const stateText = useDeliveryStateText();
  const queryClient = useQueryClient();
  const { confirm, dialog } = useConfirm();
  const [done, setDone] = useState("");
  const url = `/api/admin/webhooks/deliveries/${encodeURIComponent(deliveryId)}`;
  const action = useApiAction((kind: "retry" | "cancel") => callApi(`${url}/${kind}`, { method: "POST" }));
  const isPending = action.isPending;

  const query = useQuery({
    queryKey: webhookKeys.delivery(deliveryId),
    queryFn: () => readJson(url, WebhookDeliveryDetailSchema),
    refetchInterval: (current) => (current.state.data?.status === "pending" ? REFRESH_PENDING_MS : REFRESH_SETTLED_MS),
  });
  const delivery = query.data;

  async function act(kind: "retry" | "cancel") {
    if (kind === "cancel") {
      const ok = await confirm({
        title: t("detail.cancelTitle"),
        text: t("detail.cancelText"),
        confirmLabel: t("detail.cancelConfirm"),
      });
      if (!ok) return;
    }
    setDone("");
    const response = await action.run(kind);
    if (response.ok) setDone(t(kind === "retry" ? "detail.retried" : "detail.cancelledDone"));
    // Refused too (a 409: it changed meanwhile), the delivery is read again.
    await queryClient.invalidateQueries({ queryKey: webhookKeys.all });
  }

  if (!delivery) {
    return query.error ? (
      <p className="form-error" role="alert">
        {t("detail.loadFailed", { reason: describe(failureOf(query.error)) })}
      </p>
    ) : (
      <p className="muted">{t("detail.working")}</p>
    );
  }

  const time = (instant: string) => formatInstant(instant, locale, timeZone);
  const canRetry = delivery.status === "dead" || delivery.status === "cancelled";
  const canCancel = delivery.status === "pending";

  return (
    <>
      {query.error ? (
        <p className="form-error" role="alert">
          {t("detail.loadFailed", { reason: describe(failureOf(query.error)) })}
        </p>
      ) : null}
      <section aria-labelledby="delivery-facts">
        <h2 id="delivery-facts" className="visually-hidden">
          {t("detail.facts")}
        </h2>
        <dl className={styles.facts} data-testid="delivery-facts">
          <div>
            <dt>{t("detail.webhookId")}</dt>
            <dd className={styles.idCell} data-testid="delivery-webhook-id">
              {delivery.id}
            </dd>
          </div>
          <div>
            <dt>{t("detail.event")}</dt>
            <dd>
              {t(`eventNames.${eventKey(delivery.eventType)}`)} <code>{delivery.eventType}</code>
            </dd>
          </div>
          <div>
            <dt>{t("detail.endpoint")}</dt>
            <dd className={styles.url}>
              <BreakableUrl url={delivery.endpointUrl} />
            </dd>
          </div>
          <div>
            <dt>{t("detail.status")}</dt>
            <dd>
              <DeliveryStatusBadge status={delivery.status} />
            </dd>
          </div>
          <div>
            <dt>{t("detail.state")}</dt>
            <dd data-testid="delivery-state">
              {stateText({ ...delivery, attempts: delivery.attemptCount }, query.dataUpdatedAt)}
            </dd>
          </div>
          <div>
            <dt>{t("detail.attempts")}</dt>
            <dd>{formatNumber(delivery.attemptCount, locale)}</dd>
          </div>
          <div>
            <dt>{t("detail.created")}</dt>
            <dd>{time(delivery.createdAt)}</dd>
          </div>
        </dl>
      </section>

      <section aria-labelledby="delivery-actions">
        <h2 id="delivery-actions">{t("detail.actions")}</h2>
        <div className={styles.actions}>
          {canRetry ? (
            <button
              type="button"
              className="button button--primary"
              disabled={isPending}
              onClick={() => void act("retry")}
            >
              {t("detail.retry")}
            </button>
          ) : null}
          {canCancel ? (
            <button type="button" className="button" disabled={isPending} onClick={() => void act("cancel")}>
              {t("detail.cancel")}
            </button>
          ) : null}
          {isPending ? <span className="muted">{t("detail.working")}</span> : null}
        </div>
        <FormError message={action.error} />
        <FormStatus message={done} />
      </section>

      <section aria-labelledby="delivery-attempts">
        <h2 id="delivery-attempts">{t("detail.attemptsTitle")}</h2>
        {delivery.attempts.length === 0 ? (
          <p className="muted">{t("detail.noAttempts")}</p>
        ) : (
          <div className="table-wrap" role="region" aria-label={t("detail.attemptsLabel")} tabIndex={0}>
            <table className="data" data-testid="delivery-attempts">
              <thead>
                <tr>
                  <th scope="col">{t("detail.at")}</th>
                  <th scope="col">{t("detail.statusCode")}</th>
                  <th scope="col" className="num">
                    {t("detail.latency")}
                  </th>
                  <th scope="col">{t("detail.outcome")}</th>
                  <th scope="col">{t("detail.response")}</th>
                </tr>
              </thead>
              <tbody>
                {delivery.attempts.map((attempt, index) => (
                  <tr
                    key={`${attempt.at}-${index}`}
                    data-outcome={attempt.outcome}
                    data-status-code={attempt.statusCode ?? ""}
                  >
                    <th scope="row">{time(attempt.at)}</th>
                    <td>{attempt.statusCode === null ? t("detail.noAnswer") : String(attempt.statusCode)}</td>
                    <td className="num">
                      {t("detail.milliseconds", { ms: formatNumber(attempt.latencyMs, locale, 0) })}
                    </td>
                    <td>
                      {t(`detail.outcomes.${attempt.outcome}`)}
                      {attempt.error ? (
                        <>
                          <br />
                          <span className="muted">{t("detail.error", { error: attempt.error })}</span>
                        </>
                      ) : null}
                    </td>
                    <td>
                      {attempt.responseSnippet ? (
                        <pre className={styles.snippet}>{attempt.responseSnippet}</pre>
                      ) : (
                        <span className="muted">{t("detail.noResponse")}</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="delivery-payload">
        <h2 id="delivery-payload">{t("detail.payloadTitle")}</h2>
        <p className="muted">{t("detail.payloadNote")}</p>
        <pre className={styles.payload} data-testid="delivery-payload">
          {JSON.stringify(delivery.payload, null, 2)}
        </pre>
      </section>
      {dialog}
    </>
  );
}
