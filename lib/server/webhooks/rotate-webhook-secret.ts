import "server-only";

import { AppError } from "@/lib/shared/errors";

import { recordAuditEvent } from "../audit/record-audit-event";
import { actorOf } from "../auth/actor";
import type { ApiTokenPrincipal, StaffPrincipal } from "../auth/sessions";
import { db } from "../db/client";
import { queryRows, sql } from "../db/sql";
import { newWebhookSecret } from "./create-webhook-endpoint";

/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_WINDOW_HOURS = 24;

/**
 * Gives an endpoint a new signing secret, returned here only. The previous one keeps signing beside it (both in
 * `webhook-signature`) until `previousSecretValidUntil`, so the receiver can switch without losing a message.
 * Audited (without either secret).
 */
export async function rotateWebhookSecret(options: {
  endpointId: string;
  caller: StaffPrincipal | ApiTokenPrincipal;
}): Promise<{ secret: string; previousSecretValidUntil: string }> {
  const secret = newWebhookSecret();
  return db.$transaction(async (tx) => {
    const [row] = await queryRows<{ exam_id: string; url: string; valid_until: Date }>(
      sql`UPDATE webhook_endpoints
          SET previous_secret = secret, secret = ${secret},
              previous_secret_valid_until = clock_timestamp() + make_interval(hours => ${ROTATION_WINDOW_HOURS})
          WHERE id = ${options.endpointId}::uuid AND deleted_at IS NULL
          RETURNING exam_id::text AS exam_id, url, previous_secret_valid_until AS valid_until`,
      tx,
    );
    if (!row) throw new AppError("NOT_FOUND", "Not found.");
    await recordAuditEvent(
      {
        actor: actorOf(options.caller),
        action: "webhook.secret_rotated",
        examId: row.exam_id,
        data: { endpointId: options.endpointId, url: row.url },
      },
      tx,
    );
    return { secret, previousSecretValidUntil: row.valid_until.toISOString() };
  });
}
