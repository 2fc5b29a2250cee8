import "server-only";

import { randomUUID } from "node:crypto";

import { db } from "../db/client";
import { queryRows, sql } from "../db/sql";
import {
  settingsOf,
  type BreakerRow,
  type CandidateRow,
  type ClaimedDelivery,
  type DeliveryWorkerOptions,
} from "./delivery-settings";

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
