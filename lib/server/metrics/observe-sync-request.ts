import "server-only";

import { log } from "../log";
import { classifyOutcome } from "./classify-outcome";
import { getMetrics, type SyncEndpoint } from "./registry";

type RouteHandler<C extends { params: Promise<unknown> }> = (request: Request, context: C) => Promise<Response>;

function attemptIdOf(params: unknown): string | undefined {
  const value = (params as { attemptId?: unknown } | null)?.attemptId;
  return typeof value === "string" ? value : undefined;
}

async function requestIdOf(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.clone().json()) as { error?: { details?: { requestId?: unknown } } };
    const value = body.error?.details?.requestId;
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Wraps a route handler (the whole `route()` result, so 401s, 413s and 422s from the wrapper count
 * too): counts the request by outcome and times it. A 5xx is logged with the attempt id and the
 * request id of the error line, never with the body, which may hold answers.
 */
export function observeSyncRequest<C extends { params: Promise<unknown> }>(
  endpoint: SyncEndpoint,
  handler: RouteHandler<C>,
): RouteHandler<C> {
  return async (request, context) => {
    const started = performance.now();
    const response = await handler(request, context);
    const seconds = (performance.now() - started) / 1000;
    const outcome = classifyOutcome(response);
    const metrics = getMetrics();
    metrics.requests[endpoint].inc({ outcome });
    metrics.durations[endpoint].observe({ outcome }, seconds);
    if (outcome === "error") {
      log.error(`${endpoint} failed`, {
        attemptId: attemptIdOf(await context.params.catch(() => undefined)),
        status: response.status,
        durationMs: Math.round(seconds * 1000),
        requestId: await requestIdOf(response),
      });
    }
    return response;
  };
}
