"use client";

import type { SyncSnapshot } from "@/lib/client/sync/sync-state";

import { Icon } from "./icons";
import { useNow } from "./use-now";

/** Pending work older than this is worth a word even when the connection looks fine. */
const OLD_PENDING_MS = 20_000;

const TIME_OF_DAY = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });

type Props = { state: SyncSnapshot; onRetryNow: () => void };

/**
 * The calm truth about the network: shown when the connection is unstable or offline, when work has waited
 * long, when the server asked us to wait (429), or when sending stopped. Never red: the answers are safe.
 */
export function ConnectionBanner({ state, onRetryNow }: Props) {
  const now = useNow();
  const isOld = now !== null && state.oldestPendingAt !== null && now - state.oldestPendingAt > OLD_PENDING_MS;
  const isOffline = state.connection === "offline" || !state.online;
  const retryInSeconds =
    now !== null && state.retryAt !== null ? Math.max(0, Math.ceil((state.retryAt - now) / 1000)) : null;
  const isShown =
    state.ready && (state.connection !== "ok" || isOld || state.retryAt !== null || state.blocked !== null);

  let body = null;
  if (isShown) {
    const waiting =
      state.pendingCount === 0
        ? "No answers are waiting to be sent."
        : `${state.pendingCount} ${state.pendingCount === 1 ? "answer is" : "answers are"} waiting to be sent.`;
    body = (
      <>
        <Icon name="info" />
        <div className="banner__text">
          <p className="banner__title">
            {isOffline
              ? "You are offline. Every answer is saved on this device and will be sent automatically when the connection returns."
              : "Your connection is unstable. Every answer is saved on this device and will be sent automatically."}
          </p>
          {retryInSeconds !== null ? <p aria-live="off">The server is busy; retrying in {retryInSeconds} s.</p> : null}
          {state.blocked ? (
            <p>
              Sending has paused: {state.blocked.message} Your answers stay on this device; reload the page or try
              again.
            </p>
          ) : null}
          <p>
            {waiting}{" "}
            {state.lastSyncAt !== null
              ? `Last saved to the server at ${TIME_OF_DAY.format(state.lastSyncAt)}.`
              : "Nothing has reached the server from this device yet."}
          </p>
          {!isOffline ? (
            <button type="button" className="button button--quiet" onClick={onRetryNow}>
              Try sending now
            </button>
          ) : null}
        </div>
      </>
    );
  }

  // The live region is always in the page, so a banner that appears is announced (politely).
  return (
    <div className={isShown ? "banner" : "banner banner--hidden"} role="status" aria-live="polite">
      {body}
    </div>
  );
}
