import "server-only";

import type { RequestOutcome } from "./registry";

/**
 * The outcome label of a finished request, from its status, headers and error code. A request refused by
 * admission control (503 OVERLOADED) was shed on purpose, like a 429: counted as limited, not as an error
 * (and not logged as one: under overload that would be a log line per refused request).
 */
export function classifyOutcome(response: { status: number; headers: Headers }, errorCode?: string): RequestOutcome {
  const { status } = response;
  if (status === 503 && errorCode === "OVERLOADED") return "limited";
  if (status >= 500) return "error";
  if (status === 429) return "limited";
  if (status === 409) return "conflict";
  if (status >= 400) return "rejected";
  if (response.headers.get("idempotent-replayed") === "true") return "replayed";
  return "ok";
}
