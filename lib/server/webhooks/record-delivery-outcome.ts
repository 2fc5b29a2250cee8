import "server-only";

import { randomUUID } from "node:crypto";

import { ConsecutiveBreaker } from "cockatiel";

import { classifyStatus, retryDelayMs, type DeliveryOutcome } from "@/lib/shared/webhook-backoff";

import { db } from "../db/client";
import { queryRows, sql } from "../db/sql";
import { log } from "../log";
import { getMetrics } from "../metrics/registry";
import { settingsOf, type BreakerRow, type ClaimedDelivery, type DeliveryWorkerOptions } from "./delivery-settings";
import type { SendResult } from "./post-delivery";

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
