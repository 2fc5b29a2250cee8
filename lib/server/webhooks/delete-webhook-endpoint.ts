import "server-only";

import { AppError } from "@/lib/shared/errors";

import { recordAuditEvent } from "../audit/record-audit-event";
import { actorOf } from "../auth/actor";
import type { ApiTokenPrincipal, StaffPrincipal } from "../auth/sessions";
import { db } from "../db/client";
import { queryRows, sql } from "../db/sql";

/**
 * Deletes an endpoint: marked deleted (its deliveries and attempts stay readable), its pending deliveries
 * cancelled with `endpoint_deleted`. A delivery being sent right now finishes; its outcome is not written over
 * the cancellation (delivery-worker.ts checks the status). Audited.
 */
export async function deleteWebhookEndpoint(options: {
  endpointId: string;
  caller: StaffPrincipal | ApiTokenPrincipal;
}): Promise<void> {
  await db.$transaction(async (tx) => {
    const [row] = await queryRows<{ exam_id: string; url: string }>(
      sql`UPDATE webhook_endpoints SET deleted_at = clock_timestamp(), enabled = false
          WHERE id = ${options.endpointId}::uuid AND deleted_at IS NULL
          RETURNING exam_id::text AS exam_id, url`,
      tx,
    );
    if (!row) throw new AppError("NOT_FOUND", "Not found.");
    const cancelled = await queryRows<{ id: string }>(
      sql`UPDATE webhook_deliveries
          SET status = 'cancelled', cancel_reason = 'endpoint_deleted', next_attempt_at = NULL, lease_until = NULL,
              claim_token = NULL
          WHERE endpoint_id = ${options.endpointId}::uuid AND status = 'pending'
          RETURNING id`,
      tx,
    );
    await recordAuditEvent(
      {
        actor: actorOf(options.caller),
        action: "webhook.deleted",
        examId: row.exam_id,
        data: { endpointId: options.endpointId, url: row.url, cancelled: cancelled.length },
      },
      tx,
    );
  });
}
