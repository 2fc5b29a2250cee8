import "server-only";

import { randomUUID } from "node:crypto";

import { ConsecutiveBreaker } from "cockatiel";

import { classifyStatus, retryDelayMs, type DeliveryOutcome } from "@/lib/shared/webhook-backoff";

import { db } from "../db/client";
import { queryRows, sql } from "../db/sql";
import { env } from "../env.mjs";
import { log } from "../log";
import { getMetrics } from "../metrics/registry";
import { postDelivery, type SendResult } from "./post-delivery";

/**
 * The sender of the deliveries outbox (ADR 018). Every instance runs one; a delivery is sent by one worker at a
 * time because a claim takes the row with FOR UPDATE SKIP LOCKED and leases it (`lease_until`, `claim_token`); the
 * request runs outside any transaction, and its outcome is written only if the claim is still this worker's. A
 * worker killed mid-send leaves a lease that expires, and another sends the row again with the same webhook-id.
 */
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

type Settings = Required<DeliveryWorkerOptions>;

function settingsOf(options: DeliveryWorkerOptions = {}): Settings {
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

type CandidateRow = {
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

export type ClaimedDelivery = Omit<CandidateRow, "cancel_reason"> & { claim_token: string };

type BreakerRow = { state: "closed" | "open" | "half_open"; consecutive_failures: number; retry_at: Date | null };

/**
 * One transaction: takes due pending deliveries no one holds, cancels those whose context changed (endpoint
 * deleted or disabled, submission voided by a reopening, a newer result version already delivered to this
 * endpoint), and leases the rest that their endpoint's breaker lets through: all of a closed breaker's, one probe
 * of an open breaker whose wait is over (it becomes half-open), none otherwise (they wait until `retry_at`).
 */
export async function claimDeliveries(options: DeliveryWorkerOptions = {}): Promise<ClaimedDelivery[]> {
  const settings = settingsOf(options);
  return db.$transaction(
    async (tx) => {
      const candidates = await queryRows<CandidateRow>(
        sql`SELECT d.id, d.endpoint_id::text AS endpoint_id, d.event_type, d.payload, d.occurred_at, d.attempts,
                   w.url, w.secret, w.previous_secret, w.previous_secret_valid_until,
                   CASE WHEN w.deleted_at IS NOT NULL THEN 'endpoint_deleted'
                        WHEN NOT w.enabled THEN 'endpoint_disabled'
                        WHEN d.submission_id IS NOT NULL
                             AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.id = d.submission_id)
                          THEN 'submission_voided'
                        WHEN d.result_version IS NOT NULL AND EXISTS (
                               SELECT 1 FROM webhook_deliveries n
                               WHERE n.endpoint_id = d.endpoint_id AND n.attempt_id = d.attempt_id
                                 AND n.status = 'delivered' AND n.result_version > d.result_version)
                          THEN 'superseded'
                   END AS cancel_reason
            FROM webhook_deliveries d
            JOIN webhook_endpoints w ON w.id = d.endpoint_id
            LEFT JOIN webhook_breakers b ON b.endpoint_id = d.endpoint_id
            WHERE d.status = 'pending' AND d.next_attempt_at <= clock_timestamp()
              AND (d.lease_until IS NULL OR d.lease_until < clock_timestamp())
              -- While a breaker is open (or its probe is out), its deliveries are not even taken: no request.
              AND (b.state IS NULL OR b.state = 'closed' OR b.retry_at <= clock_timestamp()
                   OR w.deleted_at IS NOT NULL OR NOT w.enabled)
            ORDER BY d.next_attempt_at, d.created_at
            LIMIT ${settings.batch}
            FOR UPDATE OF d SKIP LOCKED`,
        tx,
      );
      if (candidates.length === 0) return [];

      const cancelled = candidates.filter((row) => row.cancel_reason !== null);
      if (cancelled.length > 0) {
        await queryRows(
          sql`UPDATE webhook_deliveries d SET status = 'cancelled', cancel_reason = t.reason, next_attempt_at = NULL,
                     lease_until = NULL, claim_token = NULL
              FROM unnest(${cancelled.map((row) => row.id)}::text[], ${cancelled.map((row) => row.cancel_reason)}::text[])
                AS t(id, reason)
              WHERE d.id = t.id`,
          tx,
        );
      }

      const byEndpoint = new Map<string, CandidateRow[]>();
      for (const row of candidates) {
        if (row.cancel_reason !== null) continue;
        const list = byEndpoint.get(row.endpoint_id);
        if (list) list.push(row);
        else byEndpoint.set(row.endpoint_id, [row]);
      }
      const chosen: CandidateRow[] = [];
      // Breakers are locked in endpoint id order, so two claims never wait on each other in a cycle.
      for (const endpointId of [...byEndpoint.keys()].sort()) {
        const rows = byEndpoint.get(endpointId) ?? [];
        await queryRows(
          sql`INSERT INTO webhook_breakers (endpoint_id) VALUES (${endpointId}::uuid) ON CONFLICT DO NOTHING`,
          tx,
        );
        const [breaker] = await queryRows<BreakerRow & { due: boolean }>(
          sql`SELECT state, consecutive_failures, retry_at, (retry_at IS NULL OR retry_at <= clock_timestamp()) AS due
              FROM webhook_breakers WHERE endpoint_id = ${endpointId}::uuid FOR UPDATE`,
          tx,
        );
        if (!breaker || breaker.state === "closed") {
          // Closed but failing: no more requests in flight than the failures it still takes to open.
          const room =
            breaker && breaker.consecutive_failures > 0
              ? Math.max(1, settings.breakerThreshold - breaker.consecutive_failures)
              : rows.length;
          chosen.push(...rows.slice(0, room));
          continue;
        }
        if (breaker.due) {
          // Open and its wait is over, or a half-open probe whose claim expired: one probe, the rest wait for it.
          // The probe's claim lasts a lease: if its worker dies, the next claim after that sends another probe.
          await queryRows(
            sql`UPDATE webhook_breakers
                SET state = 'half_open', retry_at = clock_timestamp() + make_interval(secs => ${settings.leaseMs / 1000})
                WHERE endpoint_id = ${endpointId}::uuid`,
            tx,
          );
          const [probe] = rows;
          if (probe) chosen.push(probe);
        }
        // Otherwise open (or half-open with its probe out): nothing of this endpoint is sent, and its deliveries stay
        // due; the claim's WHERE skips them until retry_at.
      }
      if (chosen.length === 0) return [];
      const token = randomUUID();
      await queryRows(
        sql`UPDATE webhook_deliveries
            SET lease_until = clock_timestamp() + make_interval(secs => ${settings.leaseMs / 1000}),
                claim_token = ${token}::uuid
            WHERE id = ANY(${chosen.map((row) => row.id)}::text[])`,
        tx,
      );
      return chosen.map((row) => {
        const { cancel_reason: cancelReason, ...claimed } = row;
        void cancelReason;
        return { ...claimed, claim_token: token };
      });
    },
    { maxWait: 5_000, timeout: 30_000 },
  );
}

/**
 * Writes a try's outcome in one transaction: the attempt row, the delivery (only if the claim is still ours and it
 * is still pending: a staff cancel or an expired lease wins), the endpoint (410 disables it; a success after
 * failures marks it recovered) and its breaker, under the breaker's row lock.
 */
export async function recordOutcome(
  delivery: ClaimedDelivery,
  result: SendResult,
  options: DeliveryWorkerOptions = {},
): Promise<DeliveryOutcome> {
  const settings = settingsOf(options);
  const outcome = classifyStatus(result.statusCode);
  const attemptsMade = delivery.attempts + 1;
  let status: "pending" | "delivered" | "dead" = "pending";
  let deadReason: "final_status" | "attempts_exhausted" | "gone_410" | null = null;
  let delayMs: number | null = null;
  if (outcome === "delivered") status = "delivered";
  else if (outcome === "gone") [status, deadReason] = ["dead", "gone_410"];
  else if (outcome === "final") [status, deadReason] = ["dead", "final_status"];
  else {
    delayMs = retryDelayMs({ schedule: settings.schedule, attemptsMade, retryAfterMs: result.retryAfterMs });
    if (delayMs === null) [status, deadReason] = ["dead", "attempts_exhausted"];
  }

  const updated = await db.$transaction(async (tx) => {
    await queryRows(
      sql`INSERT INTO webhook_attempts (id, delivery_id, status_code, latency_ms, error, response_snippet, outcome)
          VALUES (${randomUUID()}::uuid, ${delivery.id}, ${result.statusCode}::int, ${result.latencyMs}::int,
                  ${result.error}, ${result.snippet}, ${outcome})`,
      tx,
    );
    const rows = await queryRows<{ id: string }>(
      sql`UPDATE webhook_deliveries
          SET status = ${status}, attempts = attempts + 1, last_status = ${result.statusCode}::int,
              last_error = ${result.error}, dead_reason = ${deadReason},
              delivered_at = CASE WHEN ${status} = 'delivered' THEN clock_timestamp() END,
              next_attempt_at = CASE WHEN ${status} = 'pending'
                                     THEN clock_timestamp() + make_interval(secs => ${(delayMs ?? 0) / 1000}) END,
              lease_until = NULL, claim_token = NULL
          WHERE id = ${delivery.id} AND claim_token = ${delivery.claim_token}::uuid AND status = 'pending'
          RETURNING id`,
      tx,
    );

    await queryRows(
      sql`INSERT INTO webhook_breakers (endpoint_id) VALUES (${delivery.endpoint_id}::uuid) ON CONFLICT DO NOTHING`,
      tx,
    );
    const [breaker] = await queryRows<BreakerRow>(
      sql`SELECT state, consecutive_failures, retry_at FROM webhook_breakers
          WHERE endpoint_id = ${delivery.endpoint_id}::uuid FOR UPDATE`,
      tx,
    );
    if (outcome === "retry") {
      // cockatiel's ConsecutiveBreaker decides, its count read from and written back to the shared row.
      const counter = new ConsecutiveBreaker(settings.breakerThreshold);
      counter.state = breaker?.consecutive_failures ?? 0;
      const opens = counter.failure() || breaker?.state === "half_open";
      await queryRows(
        opens
          ? sql`UPDATE webhook_breakers SET state = 'open', consecutive_failures = ${counter.state}::int,
                       opened_at = CASE WHEN state = 'open' THEN opened_at ELSE clock_timestamp() END,
                       retry_at = clock_timestamp() + make_interval(secs => ${settings.breakerCooldownMs / 1000})
                WHERE endpoint_id = ${delivery.endpoint_id}::uuid`
          : sql`UPDATE webhook_breakers SET consecutive_failures = ${counter.state}::int
                WHERE endpoint_id = ${delivery.endpoint_id}::uuid`,
        tx,
      );
    } else {
      // The receiver answered: it is alive, whatever it thought of this message. A success after failed tries (the
      // breaker's, or this delivery's own, say a dead one a person sent again) marks the endpoint recovered.
      const wasFailing = !!breaker && (breaker.state !== "closed" || breaker.consecutive_failures > 0);
      await queryRows(
        sql`UPDATE webhook_breakers SET state = 'closed', consecutive_failures = 0, opened_at = NULL, retry_at = NULL
            WHERE endpoint_id = ${delivery.endpoint_id}::uuid`,
        tx,
      );
      if (outcome === "delivered") {
        await queryRows(
          sql`UPDATE webhook_endpoints
              SET last_success_at = clock_timestamp(),
                  recovered_at = CASE
                    WHEN ${wasFailing} OR EXISTS (SELECT 1 FROM webhook_attempts a
                                                  WHERE a.delivery_id = ${delivery.id} AND a.outcome <> 'delivered')
                    THEN clock_timestamp() ELSE recovered_at END
              WHERE id = ${delivery.endpoint_id}::uuid`,
          tx,
        );
      }
    }
    if (outcome === "gone") {
      await queryRows(
        sql`UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'gone_410'
            WHERE id = ${delivery.endpoint_id}::uuid`,
        tx,
      );
    }
    return rows.length > 0;
  });

  if (updated && status === "dead" && deadReason) {
    getMetrics().webhookDead.inc({ reason: deadReason });
    log.warn("webhook delivery dead-lettered", {
      alert: "webhook_dead_letter",
      deliveryId: delivery.id,
      endpointId: delivery.endpoint_id,
      eventType: delivery.event_type,
      reason: deadReason,
      attempts: attemptsMade,
      lastStatus: result.statusCode,
      lastError: result.error,
    });
  }
  return outcome;
}

/** One round: claim, send every claimed delivery in parallel, record each outcome. Returns how many were sent. */
export async function runDeliveryRound(options: DeliveryWorkerOptions = {}): Promise<number> {
  const settings = settingsOf(options);
  const claimed = await claimDeliveries(settings);
  await Promise.all(
    claimed.map(async (delivery) => {
      const result = await postDelivery(delivery, settings.timeoutMs);
      await recordOutcome(delivery, result, settings);
    }),
  );
  return claimed.length;
}

export type DeliveryWorker = { stop: () => Promise<void> };

/** Runs rounds every `intervalMs` (and at once after a round that found work) until stopped. */
export function createDeliveryWorker(options: DeliveryWorkerOptions & { intervalMs?: number } = {}): DeliveryWorker {
  const intervalMs = options.intervalMs ?? 1_000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  const tick = () => {
    if (stopped) return;
    current = (async () => {
      let sent = 0;
      try {
        sent = await runDeliveryRound(options);
      } catch (error) {
        log.warn("webhook worker: a round failed; its deliveries stay pending", { error });
      }
      if (!stopped) {
        timer = setTimeout(tick, sent > 0 ? 0 : intervalMs);
        timer.unref();
      }
    })();
  };
  tick();
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}

const globalForWorker = globalThis as unknown as { holdfastDeliveryWorker?: DeliveryWorker };

/**
 * The instance's worker (instrumentation.ts). Its timer does not keep the process alive; a process that exits
 * mid-send leaves a lease that expires, and another instance resends with the same webhook-id.
 */
export function startDeliveryWorker(): void {
  globalForWorker.holdfastDeliveryWorker ??= createDeliveryWorker();
}

/** Stops the instance's worker after its current round (tests, and a host that drains before exiting). */
export async function stopDeliveryWorker(): Promise<void> {
  const worker = globalForWorker.holdfastDeliveryWorker;
  globalForWorker.holdfastDeliveryWorker = undefined;
  await worker?.stop();
}
