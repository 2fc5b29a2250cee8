import type { WebhookEndpoint } from "../schemas/webhooks";

/**
 * An endpoint's receiver as staff should read it: the breaker's state when it is open or testing; with the breaker
 * closed, "failing" while deliveries have ended as dead letters since the last success (a receiver that answers
 * every delivery with a final refusal, a 400 say, never opens the breaker, as a refusal is not retried), else
 * "closed" (healthy).
 */
export type EndpointHealth = "closed" | "failing" | "open" | "half_open";

export function endpointHealth(endpoint: Pick<WebhookEndpoint, "breaker" | "lastDead">): EndpointHealth {
  if (endpoint.breaker.state !== "closed") return endpoint.breaker.state;
  return endpoint.lastDead !== null ? "failing" : "closed";
}
