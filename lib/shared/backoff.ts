/**
 * Retry arithmetic of the contract's "Client retry discipline" (docs/sync-protocol.md, "The client"):
 * exponential backoff with full jitter, `Retry-After`, a circuit breaker, and which answers are retried
 * at all. Pure functions over plain values, so the sync engine and its tests share one definition.
 */

/** Full-jitter exponential backoff: 0.5 s doubling to a cap of 8 s. */
export const BACKOFF = { baseMs: 500, capMs: 8_000 } as const;

/**
 * How long to wait before retry number `attempt` (0 for the first retry):
 * `random() * min(cap, base * 2^attempt)`, never less than the server's `Retry-After`.
 * Full jitter spreads a thousand candidates who lost the same Wi-Fi at the same second over the whole
 * window instead of letting them come back in lockstep.
 */
export function backoffDelay(attempt: number, random: () => number, retryAfterMs: number | null = null): number {
  const exponent = Math.max(0, Math.floor(attempt));
  // 2^exponent overflows to Infinity for absurd counts; min() with the cap keeps it finite.
  const window = Math.min(BACKOFF.capMs, BACKOFF.baseMs * 2 ** exponent);
  const unit = Math.min(Math.max(random(), 0), 1);
  const jittered = Math.floor(unit * window);
  return Math.max(jittered, retryAfterMs !== null && retryAfterMs > 0 ? retryAfterMs : 0);
}

/**
 * `Retry-After` in milliseconds: either delta-seconds ("3") or an HTTP date. Null when absent or unreadable;
 * never negative.
 */
export function parseRetryAfterMs(header: string | null | undefined, nowMs: number): number | null {
  if (header === null || header === undefined) return null;
  const text = header.trim();
  if (text === "") return null;
  // Delta-seconds is a non-negative integer; an HTTP date starts with the day's name.
  if (/^[+-]?\d/.test(text)) return /^\d+$/.test(text) ? Number(text) * 1000 : null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}

/**
 * A `Retry-After` and the kind of request it answered. It holds back requests of that kind; a submit is held only
 * by a submit's own: the server limits and admits submits apart from autosaves and reads (their own counters; under
 * overload they queue instead of being refused), and a submit carries every draft an autosave would have sent. The backoff and the
 * breaker are not part of it: they hold every kind.
 */
export type RetryAfterHold = { until: number; isSubmit: boolean };

export const NO_RETRY_AFTER: RetryAfterHold = { until: 0, isSubmit: false };

/** The hold a retry-class answer sets: until `nowMs` + its `Retry-After`; none without one. */
export function retryAfterHold(retryAfterMs: number | null, nowMs: number, isSubmit: boolean): RetryAfterHold {
  return retryAfterMs !== null && retryAfterMs > 0 ? { until: nowMs + retryAfterMs, isSubmit } : NO_RETRY_AFTER;
}

/** The earliest time the hold lets a request of this kind go. */
export function retryAfterReadyAt(hold: RetryAfterHold, isSubmit: boolean): number {
  return isSubmit && !hold.isSubmit ? 0 : hold.until;
}

/** The breaker's numbers: open after 5 failures in a row, probe again after 20 s. */
export const BREAKER_DEFAULTS = { failureThreshold: 5, coolDownMs: 20_000 } as const;
export type BreakerOptions = { failureThreshold: number; coolDownMs: number };

/**
 * A circuit breaker (closed → open → half-open → closed | open). `failures` counts consecutive
 * failures in every state; `openUntil` is when an open breaker lets one probe through.
 */
export type BreakerState =
  | { kind: "closed"; failures: number }
  | { kind: "open"; failures: number; openUntil: number }
  | { kind: "half-open"; failures: number };
export type BreakerKind = BreakerState["kind"];

export const CLOSED_BREAKER: BreakerState = { kind: "closed", failures: 0 };

/** The earliest time a request may be sent: now for closed and half-open, the end of the cool-down for open. */
export function breakerReadyAt(state: BreakerState): number {
  return state.kind === "open" ? state.openUntil : 0;
}

/** Before a request: an open breaker whose cool-down is over lets one probe through (half-open). */
export function breakerBeforeRequest(state: BreakerState, nowMs: number): BreakerState {
  if (state.kind === "open" && nowMs >= state.openUntil) return { kind: "half-open", failures: state.failures };
  return state;
}

/** Any answer from the server that is not a retry class closes the breaker. */
export function breakerOnSuccess(): BreakerState {
  return CLOSED_BREAKER;
}

/**
 * A retry-class answer, as the breaker counts it. A failure — a network error, a time-out, a 5xx without
 * `Retry-After` — opens a closed breaker at the threshold, and a failed probe (half-open) opens it again for
 * another cool-down. An answer that came with a `Retry-After` (429, 409 `REQUEST_IN_PROGRESS`, a 503 from
 * admission control) is a server the client reaches telling it when to come back: the streak grows (the backoff,
 * the page's "unstable", the status report's failures) but the breaker does not open on it, and a half-open probe
 * so answered closes it. Waiting out the `Retry-After` is already not hammering, and an open breaker would add its
 * whole cool-down (20 s) to that wait — in a deadline storm, to a submit's.
 */
export function breakerOnRetryable(
  state: BreakerState,
  nowMs: number,
  retryAfterMs: number | null,
  options: BreakerOptions = BREAKER_DEFAULTS,
): BreakerState {
  const failures = state.failures + 1;
  if (retryAfterMs !== null) return { kind: "closed", failures };
  if (state.kind === "half-open" || failures >= options.failureThreshold) {
    return { kind: "open", failures, openUntil: nowMs + options.coolDownMs };
  }
  if (state.kind === "open") return { ...state, failures };
  return { kind: "closed", failures };
}

/** A strong signal that the network is back (the `online` event, a candidate's "retry now"): probe at once. */
export function breakerForceProbe(state: BreakerState): BreakerState {
  return state.kind === "open" ? { kind: "half-open", failures: state.failures } : state;
}

/**
 * What a sync client does with an answer (contract: "Client retry discipline"):
 * - `ok`: 2xx;
 * - `retry`: a network error (`status` null), 5xx, 429, 409 `REQUEST_IN_PROGRESS` — back off and send again;
 * - `closed`: 409 `ALREADY_SUBMITTED` / `DEADLINE_PASSED` — the attempt is frozen (for a submit,
 *   `ALREADY_SUBMITTED` means done);
 * - `final`: any other 4xx (and anything else unexpected) — shown, kept locally, not retried.
 */
export type SyncResponseClass = "ok" | "retry" | "final" | "closed";

export function classifySyncResponse(status: number | null, errorCode: string | null = null): SyncResponseClass {
  if (status === null || status === 0) return "retry";
  if (status >= 200 && status < 300) return "ok";
  if (status >= 500) return "retry";
  if (status === 429) return "retry";
  if (status === 409) {
    if (errorCode === "REQUEST_IN_PROGRESS") return "retry";
    if (errorCode === "ALREADY_SUBMITTED" || errorCode === "DEADLINE_PASSED") return "closed";
  }
  return "final";
}
