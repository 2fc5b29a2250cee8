import "server-only";

import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";

/** The sync endpoints measured here. */
export type SyncEndpoint = "autosave" | "submit" | "heartbeat";

/**
 * How a request ended: `ok` (2xx), `replayed` (a submit answered from its stored response),
 * `conflict` (409: already submitted, deadline passed, in progress), `rejected` (any other 4xx),
 * `limited` (429), `error` (5xx).
 */
export const REQUEST_OUTCOMES = ["ok", "replayed", "conflict", "rejected", "limited", "error"] as const;
export type RequestOutcome = (typeof REQUEST_OUTCOMES)[number];

/** Per-answer results of an autosave (contract: "Autosave"). */
export const ANSWER_STATUSES = ["applied", "stale", "duplicate"] as const;
export type AnswerStatus = (typeof ANSWER_STATUSES)[number];

type Metrics = {
  registry: Registry;
  requests: Record<SyncEndpoint, Counter<"outcome">>;
  durations: Record<SyncEndpoint, Histogram<"outcome">>;
  autosaveAnswers: Counter<"status">;
  lateAnswers: Counter<"via">;
  webhookDead: Counter<"reason">;
};

const globalForMetrics = globalThis as unknown as { holdfastMetrics?: Metrics };

/** Seconds; from a cache-speed answer to a submit that waited on a lock. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const endpoints: SyncEndpoint[] = ["autosave", "submit", "heartbeat"];
  const requests = {} as Record<SyncEndpoint, Counter<"outcome">>;
  const durations = {} as Record<SyncEndpoint, Histogram<"outcome">>;
  for (const endpoint of endpoints) {
    requests[endpoint] = new Counter({
      name: `holdfast_${endpoint}_requests_total`,
      help: `${endpoint} requests by outcome (ok, replayed, conflict, rejected, limited, error).`,
      labelNames: ["outcome"],
      registers: [registry],
    });
    durations[endpoint] = new Histogram({
      name: `holdfast_${endpoint}_request_duration_seconds`,
      help: `Time to answer a ${endpoint} request, by outcome.`,
      labelNames: ["outcome"],
      buckets: DURATION_BUCKETS,
      registers: [registry],
    });
  }

  const autosaveAnswers = new Counter({
    name: "holdfast_autosave_answers_total",
    help: "Answers in successful autosaves, by result (applied, stale, duplicate).",
    labelNames: ["status"],
    registers: [registry],
  });
  const lateAnswers = new Counter({
    name: "holdfast_late_answers_total",
    help: "Answers that arrived for an attempt already frozen (submitted, or past deadline + grace). Counted as they are stored in late_answers; an edit the frozen paper already holds is not late.",
    labelNames: ["via"],
    registers: [registry],
  });

  const webhookDead = new Counter({
    name: "holdfast_webhook_deliveries_dead_total",
    help: "Webhook deliveries dead-lettered (issue 16), by reason (final_status, attempts_exhausted, gone_410). Alert on any increase.",
    labelNames: ["reason"],
    registers: [registry],
  });

  // Zero series from the start, so rates and ratios exist before the first event of each kind.
  for (const endpoint of endpoints) for (const outcome of REQUEST_OUTCOMES) requests[endpoint].inc({ outcome }, 0);
  for (const status of ANSWER_STATUSES) autosaveAnswers.inc({ status }, 0);
  for (const via of ["autosave", "submit"]) lateAnswers.inc({ via }, 0);
  for (const reason of ["final_status", "attempts_exhausted", "gone_410"]) webhookDead.inc({ reason }, 0);

  return { registry, requests, durations, autosaveAnswers, lateAnswers, webhookDead };
}

/** The one metrics registry of this process, memoised so dev reloads and tests do not register twice. */
export function getMetrics(): Metrics {
  return (globalForMetrics.holdfastMetrics ??= createMetrics());
}
