import "server-only";

import type { ErrorCode } from "@/lib/shared/errors";

import { log } from "../log";
import { classifyOutcome } from "../metrics/classify-outcome";
import { getMetrics, type SyncEndpoint } from "../metrics/registry";
import { examRequestStats } from "./exam-request-stats";

/** A finished sync request, as `route()` saw it (its `observe` option). */
export type SyncRequestRecord = {
  endpoint: SyncEndpoint;
  response: { status: number; headers: Headers };
  /** The code of the error the request ended with, if it did. */
  errorCode?: ErrorCode;
  /** The request id of a 5xx's log line (the error body's `details.requestId`). */
  requestId?: string;
  /** The exam of the candidate session; undefined before one was resolved (a 401, a 413). */
  examId?: string;
  /** The attempt id from the path, as sent; for the log line of a 5xx. */
  attemptId?: string;
  seconds: number;
};

/**
 * Counts a sync request by outcome and times it (Prometheus, lib/server/metrics/registry.ts), and counts
 * it for its exam (exam-request-stats.ts, read by lib/server/exam-health): memory only, nothing awaited.
 * `route()` calls this for every request of an endpoint with `observe`, so 401s, 413s and 422s from the
 * wrapper count too. A 5xx is logged with the attempt id and the request id of the error line, never with
 * the body, which may hold answers.
 */
export function observeSyncRequest(record: SyncRequestRecord): void {
  const { endpoint, seconds } = record;
  const outcome = classifyOutcome(record.response, record.errorCode);
  const metrics = getMetrics();
  metrics.requests[endpoint].inc({ outcome });
  metrics.durations[endpoint].observe({ outcome }, seconds);

  if (record.examId !== undefined) {
    const at = Date.now();
    const stats = examRequestStats();
    stats.record({ examId: record.examId, endpoint, durationMs: seconds * 1000, outcome, at });
    if (endpoint === "submit" && record.errorCode === "ALREADY_SUBMITTED")
      stats.recordAlreadySubmitted(record.examId, at);
  }

  if (outcome === "error") {
    log.error(`${endpoint} failed`, {
      attemptId: record.attemptId,
      status: record.response.status,
      durationMs: Math.round(seconds * 1000),
      requestId: record.requestId,
    });
  }
}
