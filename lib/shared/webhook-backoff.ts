/**
 * When a failed webhook delivery is tried again (ADR 018). `schedule` is WEBHOOK_RETRY_SCHEDULE in seconds: entry
 * `n` is the nominal delay before retry `n + 1`, and its length is the number of retries. Each delay is drawn with
 * full jitter, uniform in [0, nominal] (as cockatiel's fullJitterGenerator), so a cohort failing together does not
 * come back together. A receiver's `Retry-After` replaces the draw. Every delay is capped by the schedule's
 * largest entry. Returns null when no retry is left.
 */
export function retryDelayMs(options: {
  schedule: readonly number[];
  /** Tries already made, the failed one included (1 after the first). */
  attemptsMade: number;
  retryAfterMs?: number | null;
  random?: () => number;
}): number | null {
  const index = options.attemptsMade - 1;
  const nominal = options.schedule[index];
  if (nominal === undefined || index < 0) return null;
  const capMs = Math.max(...options.schedule) * 1000;
  if (options.retryAfterMs !== undefined && options.retryAfterMs !== null) {
    return Math.min(Math.max(0, options.retryAfterMs), capMs);
  }
  const random = options.random ?? Math.random;
  return Math.min(Math.floor(random() * nominal * 1000), capMs);
}

/** A `Retry-After` header as milliseconds from `now`: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

/** How a receiver's answer is treated (issue 16, "Conditional retry"). */
export type DeliveryOutcome = "delivered" | "retry" | "final" | "gone";

/** null status: a network error or a timeout. */
export function classifyStatus(status: number | null): DeliveryOutcome {
  if (status === null) return "retry";
  if (status >= 200 && status < 300) return "delivered";
  if (status === 410) return "gone";
  if (status >= 500 || status === 429 || status === 408) return "retry";
  return "final";
}
