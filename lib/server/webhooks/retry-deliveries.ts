import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { WebhookDelivery } from "@/lib/shared/schemas/webhooks";

import { recordAuditEvent } from "../audit/record-audit-event";
import { actorOf } from "../auth/actor";
import type { ApiTokenPrincipal, StaffPrincipal } from "../auth/sessions";
import { db } from "../db/client";
import { queryRows, sql } from "../db/sql";
import { readDeliveries, withoutPayload } from "./webhook-views";

/*
 * A person sends failed deliveries again (issue 16, "Dead letter, alert, people"): dead or cancelled → pending, due
 * now, with the same webhook-id and its attempts kept; the retry schedule starts over. Each is one conditional
 * UPDATE, so two people retrying at once requeue a delivery once. Audited.
 */

const REQUEUE = sql`status = 'pending', attempts = 0, next_attempt_at = clock_timestamp(), dead_reason = NULL,
                    cancel_reason = NULL, lease_until = NULL, claim_token = NULL`;

/** One delivery; a pending or delivered one is 409 DELIVERY_NOT_RETRYABLE. */
export async function retryDelivery(options: {
  deliveryId: string;
  caller: StaffPrincipal | ApiTokenPrincipal;
}): Promise<WebhookDelivery> {
  return db.$transaction(async (tx) => {
    const [row] = await queryRows<{ id: string; exam_id: string; status: string }>(
      sql`SELECT d.id, d.exam_id::text AS exam_id, d.status FROM webhook_deliveries d
          JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.deleted_at IS NULL
          WHERE d.id = ${options.deliveryId} FOR UPDATE OF d`,
      tx,
    );
    if (!row) throw new AppError("NOT_FOUND", "Not found.");
    if (row.status !== "dead" && row.status !== "cancelled") {
      throw new AppError("DELIVERY_NOT_RETRYABLE", "Only a dead or cancelled delivery can be sent again.", {
        details: { status: row.status },
      });
    }
    await queryRows(
      { text: `UPDATE webhook_deliveries SET ${REQUEUE.text} WHERE id = $1`, values: [options.deliveryId] },
      tx,
    );
    await recordAuditEvent(
      {
        actor: actorOf(options.caller),
        action: "delivery.retried",
        examId: row.exam_id,
        data: { deliveryId: options.deliveryId, from: row.status },
      },
      tx,
    );
    const [delivery] = await readDeliveries({ deliveryId: options.deliveryId }, tx);
    if (!delivery) throw new AppError("NOT_FOUND", "Not found.");
    return withoutPayload(delivery);
  });
}

/** Every dead or cancelled delivery of one endpoint created since `since`. Returns how many went back. */
export async function retryEndpointDeliveries(options: {
  endpointId: string;
  since: string;
  caller: StaffPrincipal | ApiTokenPrincipal;
}): Promise<{ requeued: number }> {
  return db.$transaction(async (tx) => {
    const [endpoint] = await queryRows<{ exam_id: string; url: string }>(
      sql`SELECT exam_id::text AS exam_id, url FROM webhook_endpoints
          WHERE id = ${options.endpointId}::uuid AND deleted_at IS NULL`,
      tx,
    );
    if (!endpoint) throw new AppError("NOT_FOUND", "Not found.");
    const rows = await queryRows<{ id: string }>(
      {
        text: `UPDATE webhook_deliveries SET ${REQUEUE.text}
               WHERE endpoint_id = $1::uuid AND status IN ('dead', 'cancelled') AND created_at >= $2::timestamptz
               RETURNING id`,
        values: [options.endpointId, options.since],
      },
      tx,
    );
    await recordAuditEvent(
      {
        actor: actorOf(options.caller),
        action: "endpoint.retried",
        examId: endpoint.exam_id,
        data: { endpointId: options.endpointId, url: endpoint.url, since: options.since, count: rows.length },
      },
      tx,
    );
    return { requeued: rows.length };
  });
}

/** Cancels a pending delivery (`cancelled_by_staff`); anything else is 409 DELIVERY_NOT_CANCELLABLE. */
export async function cancelDelivery(options: {
  deliveryId: string;
  caller: StaffPrincipal | ApiTokenPrincipal;
}): Promise<WebhookDelivery> {
  return db.$transaction(async (tx) => {
    const [row] = await queryRows<{ exam_id: string; status: string }>(
      sql`SELECT d.exam_id::text AS exam_id, d.status FROM webhook_deliveries d
          WHERE d.id = ${options.deliveryId} FOR UPDATE`,
      tx,
    );
    if (!row) throw new AppError("NOT_FOUND", "Not found.");
    if (row.status !== "pending") {
      throw new AppError("DELIVERY_NOT_CANCELLABLE", "Only a pending delivery can be cancelled.", {
        details: { status: row.status },
      });
    }
    await queryRows(
      sql`UPDATE webhook_deliveries
          SET status = 'cancelled', cancel_reason = 'cancelled_by_staff', next_attempt_at = NULL, lease_until = NULL,
              claim_token = NULL
          WHERE id = ${options.deliveryId}`,
      tx,
    );
    await recordAuditEvent(
      {
        actor: actorOf(options.caller),
        action: "delivery.cancelled",
        examId: row.exam_id,
        data: { deliveryId: options.deliveryId },
      },
      tx,
    );
    const [delivery] = await readDeliveries({ deliveryId: options.deliveryId }, tx);
    if (!delivery) throw new AppError("NOT_FOUND", "Not found.");
    return withoutPayload(delivery);
  });
}
