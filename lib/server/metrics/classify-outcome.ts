import "server-only";

import type { RequestOutcome } from "./registry";

/** The outcome label of a finished request, from its status and headers alone. */
export function classifyOutcome(response: { status: number; headers: Headers }): RequestOutcome {
  const { status } = response;
  if (status >= 500) return "error";
  if (status === 429) return "limited";
  if (status === 409) return "conflict";
  if (status >= 400) return "rejected";
  if (response.headers.get("idempotent-replayed") === "true") return "replayed";
  return "ok";
}
