import "server-only";

import { env } from "../env.mjs";

/** The delivery worker's options (delivery-worker.ts), each defaulting from the environment. */
export type DeliveryWorkerOptions = {
  /** Seconds before each retry (WEBHOOK_RETRY_SCHEDULE); its length is the number of retries. */
  schedule?: readonly number[];
  /** The receiver's time to answer (WEBHOOK_TIMEOUT_MS). */
  timeoutMs?: number;
  /** How long a claim lasts; must exceed the timeout. */
  leaseMs?: number;
  /** Consecutive failures that open an endpoint's breaker. */
  breakerThreshold?: number;
  /** How long an open breaker waits before one half-open probe. */
  breakerCooldownMs?: number;
  /** Deliveries one round claims. */
  batch?: number;
};

export type Settings = Required<DeliveryWorkerOptions>;

export function settingsOf(options: DeliveryWorkerOptions = {}): Settings {
  const timeoutMs = options.timeoutMs ?? env.WEBHOOK_TIMEOUT_MS;
  return {
    schedule: options.schedule ?? env.WEBHOOK_RETRY_SCHEDULE,
    timeoutMs,
    leaseMs: options.leaseMs ?? Math.max(60_000, timeoutMs * 4),
    breakerThreshold: options.breakerThreshold ?? 5,
    breakerCooldownMs: options.breakerCooldownMs ?? 60_000,
    batch: options.batch ?? 50,
  };
}

/** A due delivery as the claim reads it, with its endpoint's URL and secrets. */
export type CandidateRow = {
  id: string;
  endpoint_id: string;
  event_type: string;
  payload: unknown;
  occurred_at: Date;
  attempts: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_valid_until: Date | null;
  cancel_reason: string | null;
};

/** A delivery this worker has leased (claim-deliveries.ts), sent by post-delivery.ts, settled by record-delivery-outcome.ts. */
export type ClaimedDelivery = Omit<CandidateRow, "cancel_reason"> & { claim_token: string };

/** An endpoint's shared breaker row (webhook_breakers), read under its row lock. */
export type BreakerRow = {
  state: "closed" | "open" | "half_open";
  consecutive_failures: number;
  retry_at: Date | null;
};
