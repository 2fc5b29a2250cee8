"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { useId, useState, type FormEvent } from "react";

import { useConfirm, type ConfirmRequest } from "@/components/confirm-dialog";
import { BreakableUrl } from "@/components/ui/breakable-url";
import { Field } from "@/components/ui/field";
import { FormError, FormStatus } from "@/components/ui/form-error";
import { useApiAction } from "@/components/ui/use-action";
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
  type RotatedSecret,
  type WebhookEndpoint,
} from "@/lib/shared/schemas/webhooks";
import { eventKey } from "@/lib/shared/webhooks/describe-delivery";
import { endpointHealth } from "@/lib/shared/webhooks/endpoint-health";
import { zonedInputToInstant } from "@/lib/shared/zoned-time";

import { AddEndpointForm } from "./add-endpoint-form";
import { SecretDialog } from "./secret-dialog";
import styles from "./webhooks.module.css";

/** Counts and the breaker change as deliveries go out: read again this often. */
const REFRESH_MS = 5_000;

type ShownSecret = { kind: "created"; secret: string } | { kind: "rotated"; secret: string; validUntil: string };

/** What a card's buttons and form ask of the API. */
type Step =
  { kind: "toggle"; enabled: boolean } | { kind: "rotate" } | { kind: "delete" } | { kind: "retry"; since: Date };
/** What a step did: a sentence for the card, a new secret to show once, or the endpoint is gone. */
type Done = { kind: "said"; text: string } | { kind: "rotated"; rotated: RotatedSecret } | { kind: "deleted" };

function mapBody<T, U>(result: ApiCallResult<T>, map: (body: T) => U): ApiCallResult<U> {
  return result.ok ? { ok: true, body: map(result.body) } : result;
}

const endpointUrl = (endpointId: string) => `/api/admin/webhooks/${encodeURIComponent(endpointId)}`;

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
  const [listNotice, setListNotice] = useState("");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";

  const query = useQuery({
    queryKey: webhookKeys.endpoints(examId),
    queryFn: () => readJson(`/api/admin/exams/${encodeURIComponent(examId)}/webhooks`, WebhookEndpointListSchema),
    refetchInterval: REFRESH_MS,
  });

  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });

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
                readAt={query.dataUpdatedAt}
                confirm={confirm}
                refresh={refresh}
                onRotated={(rotated) =>
                  setShownSecret({
                    kind: "rotated",
                    secret: rotated.secret,
                    validUntil: rotated.previousSecretValidUntil,
                  })
                }
                onDeleted={() => setListNotice(t("endpoints.deletedDone", { url: endpoint.url }))}
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

/**
 * One endpoint: what it is and how it fares, its buttons (each confirmed where it cannot be undone) and the
 * retry-since form. Every step is one `useApiAction`; what it did or why it was refused is said under the card, and
 * the list is read again either way.
 */
function EndpointCard({
  endpoint,
  readAt,
  confirm,
  refresh,
  onRotated,
  onDeleted,
}: {
  endpoint: WebhookEndpoint;
  /** When the list was read (ms): the rotation window is judged against it. */
  readAt: number;
  confirm: (request: ConfirmRequest) => Promise<boolean>;
  refresh: () => Promise<void>;
  onRotated: (rotated: RotatedSecret) => void;
  onDeleted: () => void;
}) {
  const t = useTranslations("webhooks.endpoints");
  const tw = useTranslations("webhooks");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  const id = useId();
  const [since, setSince] = useState("");
  const [sinceError, setSinceError] = useState("");
  const [done, setDone] = useState("");
  const time = (instant: string | null) => (instant ? formatInstant(instant, locale, timeZone) : t("never"));
  const { breaker } = endpoint;
  const listFormat = new Intl.ListFormat(locale, { type: "conjunction" });
  const isRotating =
    endpoint.previousSecretValidUntil !== null && Date.parse(endpoint.previousSecretValidUntil) > readAt;
  const url = endpointUrl(endpoint.id);
  const action = useApiAction(async (step: Step): Promise<ApiCallResult<Done>> => {
    switch (step.kind) {
      case "toggle":
        return mapBody(await callApi(url, { method: "PATCH", json: { enabled: step.enabled } }), () => ({
          kind: "said" as const,
          text: t(step.enabled ? "enabledDone" : "disabledDone"),
        }));
      case "rotate":
        return mapBody(await callApi(`${url}/secret`, { method: "POST", schema: RotatedSecretSchema }), (rotated) => ({
          kind: "rotated" as const,
          rotated,
        }));
      case "delete":
        return mapBody(await callApi(url, { method: "DELETE" }), () => ({ kind: "deleted" as const }));
      case "retry":
        return mapBody(
          await callApi(`${url}/retry`, {
            method: "POST",
            json: { since: step.since.toISOString() },
            schema: EndpointRetriedSchema,
          }),
          ({ requeued }) => ({ kind: "said" as const, text: t("retrySinceDone", { count: requeued }) }),
        );
    }
  });
  const isBusy = action.isPending;

  async function run(step: Step) {
    setDone("");
    const result = await action.run(step);
    if (result.ok) {
      const outcome = result.body;
      if (outcome.kind === "said") setDone(outcome.text);
      else if (outcome.kind === "rotated") onRotated(outcome.rotated);
      else onDeleted();
    }
    await refresh();
  }

  function onToggle() {
    void run({ kind: "toggle", enabled: !endpoint.enabled });
  }

  async function onRotate() {
    const ok = await confirm({ title: t("rotateTitle"), text: t("rotateText"), confirmLabel: t("rotateConfirm") });
    if (ok) await run({ kind: "rotate" });
  }

  async function onDelete() {
    const ok = await confirm({
      title: t("deleteTitle"),
      text: t("deleteText", { url: endpoint.url }),
      confirmLabel: t("deleteConfirm"),
    });
    if (ok) await run({ kind: "delete" });
  }

  async function onRetrySince(instant: Date) {
    const ok = await confirm({
      title: t("retrySinceTitle", { time: formatInstant(instant, locale, timeZone) }),
      text: t("retrySinceText"),
      confirmLabel: t("retrySinceConfirm"),
    });
    if (ok) await run({ kind: "retry", since: instant });
  }

  function onSubmitSince(event: FormEvent) {
    event.preventDefault();
    const instant = zonedInputToInstant(since, timeZone);
    if (!instant) {
      setSinceError(t("retrySinceMissing"));
      document.getElementById(`${id}-since`)?.focus();
      return;
    }
    setSinceError("");
    void onRetrySince(instant);
  }

  // The receiver's health: the breaker's state, and with the breaker closed, the dead letters since the last
  // success (a receiver that refuses every delivery with a final answer never opens the breaker).
  const health = endpointHealth(endpoint);
  const { lastDead } = endpoint;
  const breakerText =
    breaker.state === "open"
      ? breaker.retryAt
        ? t("breakerText.open", { count: breaker.consecutiveFailures, time: time(breaker.retryAt) })
        : t("breakerText.openNoTime", { count: breaker.consecutiveFailures })
      : health === "failing" && lastDead
        ? t("breakerText.failing", {
            count: lastDead.count,
            time: time(lastDead.at),
            why:
              lastDead.reason === "final_status" && lastDead.statusCode !== null
                ? tw("deliveries.deadReasons.final_statusCode", { status: lastDead.statusCode })
                : lastDead.reason === "attempts_exhausted"
                  ? t("breakerText.exhausted")
                  : tw(`deliveries.deadReasons.${lastDead.reason ?? "final_status"}`),
          })
        : t(`breakerText.${breaker.state}`);
  const deliveriesHref = `/admin/webhooks/deliveries?endpointId=${encodeURIComponent(endpoint.id)}`;

  return (
    <li className={styles.endpoint} data-testid="webhook-endpoint">
      <h3 id={`${id}-url`} className={styles.endpointUrl}>
        <BreakableUrl url={endpoint.url} />
      </h3>
      <p className={styles.badges}>
        <span
          className={`badge ${endpoint.enabled ? styles.badgeOk : styles.badgeMuted}`}
          data-testid="webhook-enabled"
        >
          {endpoint.enabled ? t("sending") : t("disabled")}
        </span>{" "}
        <span className={`badge ${styles[`breaker_${health}`]}`} data-testid="webhook-breaker">
          {t(`breaker.${health}`)}
        </span>
      </p>
      {endpoint.disabledReason === "gone_410" && !endpoint.enabled ? (
        <p className="notice notice--warn">{t("disabledGone")}</p>
      ) : null}
      <p className={styles.breakerText}>
        {/* The label carries its language's colon (": " or "："); the sentence follows it directly. */}
        <span className="muted">{t("breakerLabel")}</span>
        {breakerText}
      </p>
      {endpoint.recoveredAt && health === "closed" ? (
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
          onClick={() => void onRotate()}
        >
          {t("rotate")}
        </button>
        <button
          type="button"
          className={`button ${styles.danger}`}
          disabled={isBusy}
          aria-label={t("deleteLabel", { url: endpoint.url })}
          onClick={() => void onDelete()}
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
      <FormError message={action.error} />
      <FormStatus message={done} />
    </li>
  );
}
