"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { useId, useState, type FormEvent } from "react";

import { useConfirm } from "@/components/confirm-dialog";
import { Field } from "@/components/ui/field";
import { FormError, FormStatus } from "@/components/ui/form-error";
import { callApi, type ApiCallResult } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { failureOf, readJson } from "@/lib/client/webhooks/read-json";
import { webhookKeys } from "@/lib/client/webhooks/query-keys";
import { formatInstant, formatNumber } from "@/lib/shared/format";
import {
  DELIVERY_STATUSES,
  EndpointRetriedSchema,
  RotatedSecretSchema,
  WebhookEndpointListSchema,
  type CreatedWebhookEndpoint,
  type WebhookEndpoint,
} from "@/lib/shared/schemas/webhooks";
import { eventKey } from "@/lib/shared/webhooks/describe-delivery";
import { zonedInputToInstant } from "@/lib/shared/zoned-time";

import { AddEndpointForm } from "./add-endpoint-form";
import { SecretDialog } from "./secret-dialog";
import styles from "./webhooks.module.css";

/** Counts and the breaker change as deliveries go out: read again this often. */
const REFRESH_MS = 5_000;

type ShownSecret = { kind: "created"; secret: string } | { kind: "rotated"; secret: string; validUntil: string };
type Outcome = { error?: string; done?: string };

/**
 * An exam's webhook endpoints (client component, needs the `webhooks` messages): each with its events, whether it
 * sends, its receiver's health (the circuit breaker, in words), its counts, last success, a recovered notice and
 * the rotation window; enable/disable, rotate the secret (confirmed, the new one shown once), delete (confirmed),
 * retry everything dead or cancelled since a time typed in the reader's zone, and its deliveries. Below, the form
 * that adds one; after it the secret is shown once.
 */
export function WebhookEndpoints({ examId }: { examId: string }) {
  const t = useTranslations("webhooks");
  const describe = useDescribeFailure();
  const queryClient = useQueryClient();
  const { confirm, dialog } = useConfirm();
  const [shownSecret, setShownSecret] = useState<ShownSecret | null>(null);
  const [outcomes, setOutcomes] = useState<Record<string, Outcome>>({});
  const [listNotice, setListNotice] = useState("");
  const [busy, setBusy] = useState<string | null>(null);
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";

  const query = useQuery({
    queryKey: webhookKeys.endpoints(examId),
    queryFn: () => readJson(`/api/admin/exams/${encodeURIComponent(examId)}/webhooks`, WebhookEndpointListSchema),
    refetchInterval: REFRESH_MS,
  });

  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });
  const setOutcome = (endpointId: string, outcome: Outcome) =>
    setOutcomes((current) => ({ ...current, [endpointId]: outcome }));

  async function run<T>(endpoint: WebhookEndpoint, request: () => Promise<ApiCallResult<T>>, onOk: (body: T) => void) {
    setBusy(endpoint.id);
    setOutcome(endpoint.id, {});
    const response = await request();
    setBusy(null);
    if (response.ok) onOk(response.body);
    else setOutcome(endpoint.id, { error: describe(response.failure) });
    await refresh();
  }

  const endpointUrl = (endpointId: string) => `/api/admin/webhooks/${encodeURIComponent(endpointId)}`;

  function onToggle(endpoint: WebhookEndpoint) {
    const enabled = !endpoint.enabled;
    void run(
      endpoint,
      () => callApi(endpointUrl(endpoint.id), { method: "PATCH", json: { enabled } }),
      () => setOutcome(endpoint.id, { done: t(enabled ? "endpoints.enabledDone" : "endpoints.disabledDone") }),
    );
  }

  async function onRotate(endpoint: WebhookEndpoint) {
    const ok = await confirm({
      title: t("endpoints.rotateTitle"),
      text: t("endpoints.rotateText"),
      confirmLabel: t("endpoints.rotateConfirm"),
    });
    if (!ok) return;
    await run(
      endpoint,
      () => callApi(`${endpointUrl(endpoint.id)}/secret`, { method: "POST", schema: RotatedSecretSchema }),
      (rotated) =>
        setShownSecret({ kind: "rotated", secret: rotated.secret, validUntil: rotated.previousSecretValidUntil }),
    );
  }

  async function onDelete(endpoint: WebhookEndpoint) {
    const ok = await confirm({
      title: t("endpoints.deleteTitle"),
      text: t("endpoints.deleteText", { url: endpoint.url }),
      confirmLabel: t("endpoints.deleteConfirm"),
    });
    if (!ok) return;
    await run(
      endpoint,
      () => callApi(endpointUrl(endpoint.id), { method: "DELETE" }),
      () => setListNotice(t("endpoints.deletedDone", { url: endpoint.url })),
    );
  }

  async function onRetrySince(endpoint: WebhookEndpoint, since: Date) {
    const ok = await confirm({
      title: t("endpoints.retrySinceTitle", { time: formatInstant(since, locale, timeZone) }),
      text: t("endpoints.retrySinceText"),
      confirmLabel: t("endpoints.retrySinceConfirm"),
    });
    if (!ok) return;
    await run(
      endpoint,
      () =>
        callApi(`${endpointUrl(endpoint.id)}/retry`, {
          method: "POST",
          json: { since: since.toISOString() },
          schema: EndpointRetriedSchema,
        }),
      ({ requeued }) => setOutcome(endpoint.id, { done: t("endpoints.retrySinceDone", { count: requeued }) }),
    );
  }

  function onCreated(created: CreatedWebhookEndpoint) {
    setListNotice("");
    setShownSecret({ kind: "created", secret: created.secret });
    void refresh();
  }

  const endpoints = query.data?.endpoints;
  return (
    <>
      <section aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading">{t("endpoints.listTitle")}</h2>
        <p className="muted">{t("endpoints.refreshNote")}</p>
        <p>
          <Link href={`/admin/webhooks/deliveries?examId=${encodeURIComponent(examId)}`}>
            {t("endpoints.examDeliveries")}
          </Link>
        </p>
        {query.error ? (
          <p className="form-error" role="alert">
            {t("endpoints.loadFailed", { reason: describe(failureOf(query.error)) })}
          </p>
        ) : null}
        <p className="form-done" role="status" aria-live="polite">
          {listNotice}
        </p>
        {endpoints === undefined ? (
          query.isPending ? (
            <p className="muted">{t("endpoints.working")}</p>
          ) : null
        ) : endpoints.length === 0 ? (
          <p className="muted" data-testid="webhooks-empty">
            {t("endpoints.empty")}
          </p>
        ) : (
          <ul className={styles.endpoints}>
            {endpoints.map((endpoint) => (
              <EndpointCard
                key={endpoint.id}
                endpoint={endpoint}
                outcome={outcomes[endpoint.id] ?? {}}
                isBusy={busy === endpoint.id}
                readAt={query.dataUpdatedAt}
                onToggle={() => onToggle(endpoint)}
                onRotate={() => void onRotate(endpoint)}
                onDelete={() => void onDelete(endpoint)}
                onRetrySince={(since) => void onRetrySince(endpoint, since)}
              />
            ))}
          </ul>
        )}
      </section>
      <AddEndpointForm examId={examId} onCreated={onCreated} />
      {shownSecret ? (
        <SecretDialog
          title={t(shownSecret.kind === "created" ? "secret.createdTitle" : "secret.rotatedTitle")}
          intro={
            shownSecret.kind === "created"
              ? t("secret.createdIntro")
              : t("secret.rotatedIntro", { time: formatInstant(shownSecret.validUntil, locale, timeZone) })
          }
          secret={shownSecret.secret}
          onClose={() => setShownSecret(null)}
        />
      ) : null}
      {dialog}
    </>
  );
}

function EndpointCard({
  endpoint,
  outcome,
  isBusy,
  readAt,
  onToggle,
  onRotate,
  onDelete,
  onRetrySince,
}: {
  endpoint: WebhookEndpoint;
  outcome: Outcome;
  isBusy: boolean;
  /** When the list was read (ms): the rotation window is judged against it. */
  readAt: number;
  onToggle: () => void;
  onRotate: () => void;
  onDelete: () => void;
  onRetrySince: (since: Date) => void;
}) {
  const t = useTranslations("webhooks.endpoints");
  const tw = useTranslations("webhooks");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  const id = useId();
  const [since, setSince] = useState("");
  const [sinceError, setSinceError] = useState("");
  const time = (instant: string | null) => (instant ? formatInstant(instant, locale, timeZone) : t("never"));
  const { breaker } = endpoint;
  const listFormat = new Intl.ListFormat(locale, { type: "conjunction" });
  const isRotating =
    endpoint.previousSecretValidUntil !== null && Date.parse(endpoint.previousSecretValidUntil) > readAt;

  function onSubmitSince(event: FormEvent) {
    event.preventDefault();
    const instant = zonedInputToInstant(since, timeZone);
    if (!instant) {
      setSinceError(t("retrySinceMissing"));
      document.getElementById(`${id}-since`)?.focus();
      return;
    }
    setSinceError("");
    onRetrySince(instant);
  }

  const breakerText =
    breaker.state === "open"
      ? breaker.retryAt
        ? t("breakerText.open", { count: breaker.consecutiveFailures, time: time(breaker.retryAt) })
        : t("breakerText.openNoTime", { count: breaker.consecutiveFailures })
      : t(`breakerText.${breaker.state}`);
  const deliveriesHref = `/admin/webhooks/deliveries?endpointId=${encodeURIComponent(endpoint.id)}`;

  return (
    <li className={styles.endpoint} data-testid="webhook-endpoint">
      <h3 id={`${id}-url`} className={styles.endpointUrl}>
        {endpoint.url}
      </h3>
      <p className={styles.badges}>
        <span
          className={`badge ${endpoint.enabled ? styles.badgeOk : styles.badgeMuted}`}
          data-testid="webhook-enabled"
        >
          {endpoint.enabled ? t("sending") : t("disabled")}
        </span>{" "}
        <span className={`badge ${styles[`breaker_${breaker.state}`]}`} data-testid="webhook-breaker">
          {t(`breaker.${breaker.state}`)}
        </span>
      </p>
      {endpoint.disabledReason === "gone_410" && !endpoint.enabled ? (
        <p className="notice notice--warn">{t("disabledGone")}</p>
      ) : null}
      <p className={styles.breakerText}>
        <span className="muted">{t("breakerLabel")}: </span>
        {breakerText}
      </p>
      {endpoint.recoveredAt && breaker.state === "closed" ? (
        <p className={`notice ${styles.recovered}`} data-testid="webhook-recovered">
          {t("recovered", { time: time(endpoint.recoveredAt) })}
        </p>
      ) : null}
      {isRotating ? <p className="notice">{t("rotation", { time: time(endpoint.previousSecretValidUntil) })}</p> : null}
      <dl className={styles.facts}>
        <div>
          <dt>{t("eventsLabel")}</dt>
          <dd>{listFormat.format(endpoint.events.map((event) => tw(`eventNames.${eventKey(event)}`)))}</dd>
        </div>
        {DELIVERY_STATUSES.map((status) => (
          <div key={status}>
            <dt>{t(`counts.${status}`)}</dt>
            <dd data-testid={`webhook-count-${status}`}>{formatNumber(endpoint.counts[status], locale)}</dd>
          </div>
        ))}
        <div>
          <dt>{t("lastSuccess")}</dt>
          <dd>{time(endpoint.lastSuccessAt)}</dd>
        </div>
        <div>
          <dt>{t("created")}</dt>
          <dd>{time(endpoint.createdAt)}</dd>
        </div>
      </dl>
      <div className={styles.actions}>
        <button
          type="button"
          className="button"
          disabled={isBusy}
          aria-label={t(endpoint.enabled ? "disableLabel" : "enableLabel", { url: endpoint.url })}
          onClick={onToggle}
        >
          {t(endpoint.enabled ? "disable" : "enable")}
        </button>
        <button
          type="button"
          className="button"
          disabled={isBusy}
          aria-label={t("rotateLabel", { url: endpoint.url })}
          onClick={onRotate}
        >
          {t("rotate")}
        </button>
        <button
          type="button"
          className={`button ${styles.danger}`}
          disabled={isBusy}
          aria-label={t("deleteLabel", { url: endpoint.url })}
          onClick={onDelete}
        >
          {t("delete")}
        </button>
        <Link href={deliveriesHref} aria-label={t("deliveriesLabel", { url: endpoint.url })}>
          {t("deliveries")}
        </Link>
        {isBusy ? <span className="muted">{t("working")}</span> : null}
      </div>
      <form className={styles.sinceForm} onSubmit={onSubmitSince} noValidate>
        <Field
          id={`${id}-since`}
          label={t("retrySince")}
          error={sinceError}
          type="datetime-local"
          value={since}
          onChange={(event) => setSince(event.target.value)}
        />
        <button type="submit" className="button" disabled={isBusy}>
          {t("retrySinceButton")}
        </button>
      </form>
      <FormError message={outcome.error} />
      <FormStatus message={outcome.done} />
    </li>
  );
}
