// A closed-loop load generator: N clients, each sending its next request as soon as the previous one
// answered, for a warm-up and then a fixed measurement window. Requests started inside the window are
// measured (also the ones that finish just after it); a client whose work runs out stops early.
import { performance } from "node:perf_hooks";

import { Counter, LatencyRecorder, type LatencySummary } from "./latency";
import { sleep } from "../run/log";

/** `ok`: the work was done; `limited`: 429, expected under a rate limit; `unexpected`: anything else. */
export type OutcomeKind = "ok" | "limited" | "unexpected";
export type Outcome = { key: string; kind: OutcomeKind };
export type Operation = () => Promise<Outcome>;

export type LoadResult = {
  clients: number;
  warmupMs: number;
  windowMs: number;
  /** From the window's start to the last measured completion. */
  elapsedMs: number;
  requests: number;
  ok: number;
  limited: number;
  unexpected: number;
  /** Completed `ok` requests per second: the figure compared with the baseline. */
  throughput: number;
  /** Every measured request per second, whatever its outcome. */
  requestRate: number;
  /** Latency of the `ok` requests. */
  latency: LatencySummary;
  /** Latency of every measured request. */
  latencyAll: LatencySummary;
  statuses: Record<string, number>;
  warmupStatuses: Record<string, number>;
  /** Clients that ran out of work before the window ended. */
  exhaustedClients: number;
  isRequestCapHit: boolean;
  isAborted: boolean;
};

export async function runClosedLoop(options: {
  clients: number;
  warmupMs: number;
  windowMs: number;
  /** Bound on requests, warm-up included, whatever the time. */
  maxRequests: number;
  signal: AbortSignal;
  /** The next request of `client`, or null when it has no more work. May wait (pacing) before answering. */
  next: (client: number) => Promise<Operation | null>;
  /** Bound on each client's warm-up requests (when its work is scarce, e.g. attempts to submit). */
  maxWarmupRequestsPerClient?: number;
  /** Called when the warm-up ends and the measured window begins. */
  onWindowStart?: () => void;
}): Promise<LoadResult> {
  const startedAt = performance.now();
  const windowStart = startedAt + options.warmupMs;
  const windowEnd = windowStart + options.windowMs;
  const latency = new LatencyRecorder();
  const latencyAll = new LatencyRecorder();
  const statuses = new Counter();
  const warmupStatuses = new Counter();
  let issued = 0;
  let lastCompletion = windowStart;
  let isAnyMeasured = false;
  let exhaustedClients = 0;
  const kinds = { ok: 0, limited: 0, unexpected: 0 };
  const windowTimer = setTimeout(() => options.onWindowStart?.(), options.warmupMs);

  const client = async (index: number): Promise<void> => {
    let warmupRequests = 0;
    while (!options.signal.aborted && issued < options.maxRequests) {
      const now = performance.now();
      if (now >= windowEnd) return;
      if (now < windowStart && warmupRequests >= (options.maxWarmupRequestsPerClient ?? Infinity)) {
        await sleep(windowStart - now, options.signal);
        continue;
      }
      const operation = await options.next(index);
      if (!operation) {
        exhaustedClients += 1;
        return;
      }
      const began = performance.now();
      if (began >= windowEnd) return;
      issued += 1;
      const outcome = await operation();
      const finished = performance.now();
      if (began < windowStart) {
        warmupRequests += 1;
        warmupStatuses.add(outcome.key);
        continue;
      }
      isAnyMeasured = true;
      lastCompletion = Math.max(lastCompletion, finished);
      statuses.add(outcome.key);
      kinds[outcome.kind] += 1;
      latencyAll.record(finished - began);
      if (outcome.kind === "ok") latency.record(finished - began);
    }
  };

  await Promise.all(Array.from({ length: options.clients }, (_, index) => client(index)));
  clearTimeout(windowTimer);
  const elapsedMs = isAnyMeasured ? lastCompletion - windowStart : 0;
  const perSecond = (count: number): number => (elapsedMs > 0 ? Math.round((count / elapsedMs) * 1000 * 10) / 10 : 0);
  const requests = kinds.ok + kinds.limited + kinds.unexpected;
  return {
    clients: options.clients,
    warmupMs: options.warmupMs,
    windowMs: options.windowMs,
    elapsedMs: Math.round(elapsedMs),
    requests,
    ...kinds,
    throughput: perSecond(kinds.ok),
    requestRate: perSecond(requests),
    latency: latency.summary(),
    latencyAll: latencyAll.summary(),
    statuses: statuses.toJSON(),
    warmupStatuses: warmupStatuses.toJSON(),
    exhaustedClients,
    isRequestCapHit: issued >= options.maxRequests,
    isAborted: options.signal.aborted,
  };
}
