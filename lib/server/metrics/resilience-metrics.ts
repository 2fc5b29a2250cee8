import "server-only";

import { Counter, Gauge } from "prom-client";

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
  };
  for (const outcome of ["ok", "failed", "timeout", "bypassed"]) metrics.redisCalls.inc({ outcome }, 0);
  for (const to of ["open", "half-open", "closed"]) metrics.redisBreakerTransitions.inc({ to }, 0);
  for (const kind of ADMISSION_KINDS)
    for (const decision of ["admitted", "refused"]) metrics.admission.inc({ kind, decision }, 0);
  return (globalForMetrics.holdfastResilienceMetrics = metrics);
}
