import "server-only";

import { Counter, Gauge, Histogram } from "prom-client";

import { getMetrics } from "./registry";

/** The request kinds admission control tells apart (lib/server/limits/admission.ts). */
export const ADMISSION_KINDS = ["submit", "autosave", "heartbeat", "other"] as const;
export type AdmissionKind = (typeof ADMISSION_KINDS)[number];

type ResilienceMetrics = {
  redisCalls: Counter<"outcome">;
  redisBreakerState: Gauge;
  redisBreakerTransitions: Counter<"to">;
  admission: Counter<"kind" | "decision">;
  inFlight: Gauge;
  eventLoopDelay: Gauge;
  submitQueue: Gauge<"state">;
  submitQueueWait: Histogram;
  submitQueueRefused: Counter<"reason">;
  submitPhase: Histogram<"phase">;
};

const globalForMetrics = globalThis as unknown as { holdfastResilienceMetrics?: ResilienceMetrics };

/**
 * The Redis breaker's and admission control's metrics (docs/decisions/020), on the one registry of this
 * process (registry.ts). Registered on first use: the breaker and route() make them at start.
 */
export function getResilienceMetrics(): ResilienceMetrics {
  if (globalForMetrics.holdfastResilienceMetrics) return globalForMetrics.holdfastResilienceMetrics;
  const { registry } = getMetrics();
  const metrics: ResilienceMetrics = {
    redisCalls: new Counter({
      name: "holdfast_redis_calls_total",
      help: "Redis calls of the request path by outcome: ok, failed, timeout (counted by the breaker), bypassed (breaker open, not sent).",
      labelNames: ["outcome"],
      registers: [registry],
    }),
    redisBreakerState: new Gauge({
      name: "holdfast_redis_breaker_state",
      help: "The Redis breaker: 0 closed (Redis used), 1 half-open (one probe), 2 open (Redis skipped, Postgres decides alone).",
      registers: [registry],
    }),
    redisBreakerTransitions: new Counter({
      name: "holdfast_redis_breaker_transitions_total",
      help: "Changes of the Redis breaker's state, by the state entered.",
      labelNames: ["to"],
      registers: [registry],
    }),
    admission: new Counter({
      name: "holdfast_admission_total",
      help: "Requests through admission control by kind (submit, autosave, heartbeat, other) and decision (admitted, refused: 503 OVERLOADED).",
      labelNames: ["kind", "decision"],
      registers: [registry],
    }),
    inFlight: new Gauge({
      name: "holdfast_requests_in_flight",
      help: "API requests being handled by this process now (admission control's in-flight count).",
      registers: [registry],
    }),
    eventLoopDelay: new Gauge({
      name: "holdfast_event_loop_delay_seconds",
      help: "p99 event-loop delay over admission control's last window.",
      registers: [registry],
    }),
    submitQueue: new Gauge({
      name: "holdfast_submit_queue",
      help: "The submit queue (lib/server/limits/submit-queue.ts): submits and force-submits working (state=working) and waiting their turn (state=waiting) in this process.",
      labelNames: ["state"],
      registers: [registry],
    }),
    submitQueueWait: new Histogram({
      name: "holdfast_submit_queue_wait_seconds",
      help: "How long a submit or force-submit waited in the submit queue before its turn.",
      buckets: [0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64],
      registers: [registry],
    }),
    submitQueueRefused: new Counter({
      name: "holdfast_submit_queue_refused_total",
      help: "Submits the queue refused (503 OVERLOADED, Retry-After from its expected wait), by reason: late (its turn would come after the attempt's deadline + grace), full (the most that may wait already do).",
      labelNames: ["reason"],
      registers: [registry],
    }),
    submitPhase: new Histogram({
      name: "holdfast_submit_phase_seconds",
      help: "Where a candidate's submit spends its time in its turn (lib/server/attempts/submit-attempt.ts): read (the paper and the session, one statement), write (the one statement), and only when that could not decide: lock (the Redis lock), locked (the locked transaction), unlock.",
      labelNames: ["phase"],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8],
      registers: [registry],
    }),
  };
  for (const outcome of ["ok", "failed", "timeout", "bypassed"]) metrics.redisCalls.inc({ outcome }, 0);
  for (const to of ["open", "half-open", "closed"]) metrics.redisBreakerTransitions.inc({ to }, 0);
  for (const kind of ADMISSION_KINDS)
    for (const decision of ["admitted", "refused"]) metrics.admission.inc({ kind, decision }, 0);
  for (const reason of ["late", "full"]) metrics.submitQueueRefused.inc({ reason }, 0);
  for (const state of ["working", "waiting"]) metrics.submitQueue.set({ state }, 0);
  return (globalForMetrics.holdfastResilienceMetrics = metrics);
}
