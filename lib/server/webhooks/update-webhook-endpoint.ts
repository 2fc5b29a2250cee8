import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { UpdateWebhookInput, WebhookEndpoint } from "@/lib/shared/schemas/webhooks";

import { recordAuditEvent } from "../audit/record-audit-event";
import { actorOf } from "../auth/actor";
import type { ApiTokenPrincipal, StaffPrincipal } from "../auth/sessions";
import { db } from "../db/client";
import { queryRows, sql } from "../db/sql";
import { readEndpoints } from "./webhook-views";

/** Changes an endpoint's URL, events or enabled flag; enabling clears `disabledReason`. Audited. */
export async function updateWebhookEndpoint(options: {
  endpointId: string;
  input: UpdateWebhookInput;
  caller: StaffPrincipal | ApiTokenPrincipal;
}): Promise<WebhookEndpoint> {
  const { url, events, enabled } = options.input;
  return db.$transaction(async (tx) => {
    const [row] = await queryRows<{ exam_id: string; url: string }>(
      sql`UPDATE webhook_endpoints
          SET url = coalesce(${url ?? null}::text, url),
              events = coalesce(${events ? [...events] : null}::text[], events),
              enabled = coalesce(${enabled ?? null}::boolean, enabled),
              disabled_reason = CASE WHEN ${enabled ?? null}::boolean THEN NULL ELSE disabled_reason END
          WHERE id = ${options.endpointId}::uuid AND deleted_at IS NULL
          RETURNING exam_id::text AS exam_id, url`,
      tx,
    );
    if (!row) throw new AppError("NOT_FOUND", "Not found.");
    await recordAuditEvent(
      {
        actor: actorOf(options.caller),
        action: "webhook.updated",
        examId: row.exam_id,
        data: { endpointId: options.endpointId, url: row.url, changes: Object.keys(options.input) },
      },
      tx,
    );
    const [endpoint] = await readEndpoints({ endpointId: options.endpointId }, tx);
    if (!endpoint) throw new AppError("NOT_FOUND", "Not found.");
    return endpoint;
  });
}
