"use client";

import { useLocale, useTimeZone, useTranslations } from "next-intl";

import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import type { RecordedError, SyncSnapshot } from "@/lib/client/sync/sync-state";
import { formatClock } from "@/lib/shared/format";
import type { ApiFailure } from "@/lib/shared/i18n/api-failure";
import { ERROR_STATUS, type ErrorCode } from "@/lib/shared/errors";

import { Icon } from "./icons";
import { useNow } from "./use-now";

import page from "./exam-page.module.css";

/** Pending work older than this is worth a word even when the connection looks fine. */
const OLD_PENDING_MS = 20_000;

/**
 * A final answer the engine recorded (status, code, English message), as the failure the error catalog
 * translates by code. Status 0 is the network; the English message is never shown.
 */
export function failureOf(error: RecordedError): ApiFailure {
  if (error.status === 0) return { kind: "network" };
  const code = error.code !== null && Object.hasOwn(ERROR_STATUS, error.code) ? (error.code as ErrorCode) : null;
  return { kind: "http", status: error.status, code, message: error.message, issues: [] };
}

type Props = { state: SyncSnapshot; onRetryNow: () => void };

/**
 * The calm truth about the network, in full: shown when the connection is unstable or offline, when work has
 * waited long, when the server asked us to wait (429), or when sending stopped. Never red: the answers are
 * safe. The short form (connection and count) stays in the sticky bar (ConnectionStatus) when this scrolls away.
 */
export function ConnectionBanner({ state, onRetryNow }: Props) {
  const t = useTranslations("exam.banner");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  const describe = useDescribeFailure();
  const now = useNow();
  const isOld = now !== null && state.oldestPendingAt !== null && now - state.oldestPendingAt > OLD_PENDING_MS;
  const isOffline = state.connection === "offline" || !state.online;
  const retryInSeconds =
    now !== null && state.retryAt !== null ? Math.max(0, Math.ceil((state.retryAt - now) / 1000)) : null;
  const isShown =
    state.ready && (state.connection !== "ok" || isOld || state.retryAt !== null || state.blocked !== null);

  let body = null;
  if (isShown) {
    body = (
      <>
        <Icon name="info" />
        <div className={page.bannerText}>
          <p className={page.bannerTitle}>{isOffline ? t("offline") : t("unstable")}</p>
          {retryInSeconds !== null ? <p aria-live="off">{t("busy", { seconds: retryInSeconds })}</p> : null}
          {state.blocked ? <p>{t("blocked", { reason: describe(failureOf(state.blocked)) })}</p> : null}
          <p>
            {t("status", {
              waiting: t("waiting", { count: state.pendingCount }),
              saved:
                state.lastSyncAt !== null
                  ? t("lastSaved", { time: formatClock(state.lastSyncAt, locale, timeZone) })
                  : t("neverSaved"),
            })}
          </p>
          {!isOffline ? (
            <button type="button" className="button button--quiet" onClick={onRetryNow}>
              {t("retryNow")}
            </button>
          ) : null}
        </div>
      </>
    );
  }

  // The live region is always in the page, so a banner that appears is announced (politely).
  return (
    <div className={isShown ? page.banner : `${page.banner} ${page.hidden}`} role="status" aria-live="polite">
      {body}
    </div>
  );
}

/**
 * The connection and the answers still on this device, in the sticky bar: visible wherever the candidate has
 * scrolled. Not a live region (it changes at every save); the banner and the countdown announce what matters.
 */
export function ConnectionStatus({ state }: { state: SyncSnapshot }) {
  const t = useTranslations("exam.bar");
  const isOffline = state.connection === "offline" || !state.online;
  // A newer release took the device's store: this page sends and keeps nothing more (the page's notice says why).
  const kind = state.storeSuperseded
    ? "stopped"
    : isOffline
      ? "offline"
      : state.connection === "unstable"
        ? "unstable"
        : "online";
  const isAllSent = state.pendingCount === 0;
  const detail =
    kind === "stopped"
      ? t("reloadToGoOn")
      : !state.ready
        ? t("opening")
        : isAllSent
          ? t("allSent")
          : t("pending", { count: state.pendingCount });
  return (
    // `connection-status--${kind}`: the hook e2e/a11y/axe.spec.ts finds the stopped state by.
    <p className={`${page.connection} ${page[kind]} connection-status--${kind}`} data-pending={state.pendingCount}>
      <Icon name={kind === "online" && isAllSent ? "saved" : kind === "online" ? "pending" : "info"} />
      <span>
        <strong>{t(kind)}</strong>
        <span aria-hidden="true"> · </span>
        <span className="visually-hidden">, </span>
        {detail}
      </span>
    </p>
  );
}
