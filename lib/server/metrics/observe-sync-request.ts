import "server-only";

import { examRequestStats } from "../exam-health/exam-request-stats";
import { requestExamOf } from "../exam-health/request-exam";
import { log } from "../log";
import { classifyOutcome } from "./classify-outcome";
import { getMetrics, type RequestOutcome, type SyncEndpoint } from "./registry";

type RouteHandler<C extends { params: Promise<unknown> }> = (request: Request, context: C) => Promise<Response>;

function attemptIdOf(params: unknown): string | undefined {
  const value = (params as { attemptId?: unknown } | null)?.attemptId;
  return typeof value === "string" ? value : undefined;
}

/** The error body of a response (read from a clone, so the response itself still streams), if it has one. */
async function errorOf(response: Response): Promise<{ code?: unknown; details?: { requestId?: unknown } } | undefined> {
  try {
    return ((await response.clone().json()) as { error?: { code?: unknown; details?: { requestId?: unknown } } }).error;
  } catch {
    return undefined;
  }
}

/**
 * Counts the request for its exam (lib/server/exam-health): memory only, nothing awaited. The exam comes
 * from the candidate session `route()` resolved (see request-exam.ts); a request without one (a 401) has no
 * exam and is left out. Only the body tells ALREADY_SUBMITTED from the other 409s of a submit: it is read
 * from a clone after the response is handed back, off the request's path.
 */
function recordForExam(request: Request, response: Response, endpoint: SyncEndpoint, seconds: number, outcome: RequestOutcome): void {
  const examId = requestExamOf(request);
  if (examId === undefined) return;
  const at = Date.now();
  const stats = examRequestStats();
  stats.record({ examId, endpoint, durationMs: seconds * 1000, outcome, at });
  if (endpoint === "submit" && response.status === 409) {
    void errorOf(response).then((error) => {
      if (error?.code === "ALREADY_SUBMITTED") stats.recordAlreadySubmitted(examId, at);
    });
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
    recordForExam(request, response, endpoint, seconds, outcome);
    if (outcome === "error") {
      log.error(`${endpoint} failed`, {
        attemptId: attemptIdOf(await context.params.catch(() => undefined)),
        status: response.status,
        durationMs: Math.round(seconds * 1000),
        requestId: await errorOf(response).then((error) => {
          const value = error?.details?.requestId;
          return typeof value === "string" ? value : undefined;
        }),
      });
    }
    return response;
  };
}
