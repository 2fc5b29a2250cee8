import "server-only";

import { queryRows, sql } from "../db/sql";

/** For the admin header's badge: dead deliveries of live endpoints, and breakers not closed. */
export async function readWebhookAlerts(): Promise<{ dead: number; openBreakers: number }> {
  const [row] = await queryRows<{ dead: number; open_breakers: number }>(
    sql`SELECT (SELECT count(*)::int FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
                WHERE d.status = 'dead' AND w.deleted_at IS NULL) AS dead,
               (SELECT count(*)::int FROM webhook_breakers b JOIN webhook_endpoints w ON w.id = b.endpoint_id
                WHERE b.state <> 'closed' AND w.deleted_at IS NULL) AS open_breakers`,
  );
  return { dead: row?.dead ?? 0, openBreakers: row?.open_breakers ?? 0 };
}
