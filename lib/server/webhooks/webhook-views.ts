import "server-only";

import type { DeliveryAttempt, WebhookDelivery, WebhookEndpoint } from "@/lib/shared/schemas/webhooks";

import { queryRows, sql, type RawQueryable } from "../db/sql";

type EndpointRow = {
  id: string;
  exam_id: string;
  url: string;
  events: string[];
  enabled: boolean;
  disabled_reason: "gone_410" | null;
  previous_secret_valid_until: Date | null;
  last_success_at: Date | null;
  recovered_at: Date | null;
  created_at: Date;
  state: "closed" | "open" | "half_open" | null;
  consecutive_failures: number | null;
  opened_at: Date | null;
  retry_at: Date | null;
  pending: number;
  delivered: number;
  dead: number;
  cancelled: number;
  dead_since_success: number | null;
  last_dead_at: Date | null;
  last_dead_status: number | null;
  last_dead_reason: NonNullable<WebhookEndpoint["lastDead"]>["reason"];
};

const iso = (value: Date | null): string | null => value?.toISOString() ?? null;

/**
 * Endpoints (not deleted) as the API shows them, with their breaker and counts by status: those of `examId`, or
 * the one `endpointId`.
 */
export async function readEndpoints(
  scope: { examId: string } | { endpointId: string },
  client?: RawQueryable,
): Promise<WebhookEndpoint[]> {
  const examId = "examId" in scope ? scope.examId : null;
  const endpointId = "endpointId" in scope ? scope.endpointId : null;
  const rows = await queryRows<EndpointRow>(
    sql`SELECT w.id::text AS id, w.exam_id::text AS exam_id, w.url, w.events, w.enabled, w.disabled_reason,
               w.previous_secret_valid_until, w.last_success_at, w.recovered_at, w.created_at,
               b.state, b.consecutive_failures, b.opened_at, b.retry_at,
               (SELECT count(*) FILTER (WHERE d.status = 'pending')::int FROM webhook_deliveries d WHERE d.endpoint_id = w.id) AS pending,
               (SELECT count(*) FILTER (WHERE d.status = 'delivered')::int FROM webhook_deliveries d WHERE d.endpoint_id = w.id) AS delivered,
               (SELECT count(*) FILTER (WHERE d.status = 'dead')::int FROM webhook_deliveries d WHERE d.endpoint_id = w.id) AS dead,
               (SELECT count(*) FILTER (WHERE d.status = 'cancelled')::int FROM webhook_deliveries d WHERE d.endpoint_id = w.id) AS cancelled,
               dead.count AS dead_since_success, dead.last_at AS last_dead_at, dead.last_status AS last_dead_status,
               dead.last_reason AS last_dead_reason
        FROM webhook_endpoints w LEFT JOIN webhook_breakers b ON b.endpoint_id = w.id
        -- The deliveries that ended as dead letters after the endpoint's last success (when each died: its last
        -- attempt), and the latest of them: a receiver that refuses every delivery never opens the breaker (a
        -- final answer is not retried), so this is what says it is failing.
        -- The newest such row, with how many there are (the window counts before LIMIT takes one).
        LEFT JOIN LATERAL (
          SELECT count(*) OVER ()::int AS count, x.died_at AS last_at, x.last_status, x.dead_reason AS last_reason
          FROM (SELECT d.last_status, d.dead_reason,
                       coalesce((SELECT max(a.at) FROM webhook_attempts a WHERE a.delivery_id = d.id), d.created_at) AS died_at
                FROM webhook_deliveries d WHERE d.endpoint_id = w.id AND d.status = 'dead') x
          WHERE w.last_success_at IS NULL OR x.died_at > w.last_success_at
          ORDER BY x.died_at DESC
          LIMIT 1
        ) dead ON true
        WHERE w.deleted_at IS NULL
          AND (${examId}::uuid IS NULL OR w.exam_id = ${examId}::uuid)
          AND (${endpointId}::uuid IS NULL OR w.id = ${endpointId}::uuid)
        ORDER BY w.created_at, w.id`,
    client,
  );
  return rows.map((row) => ({
    id: row.id,
    examId: row.exam_id,
    url: row.url,
    events: row.events as WebhookEndpoint["events"],
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    breaker: {
      state: row.state ?? "closed",
      consecutiveFailures: row.consecutive_failures ?? 0,
      openedAt: iso(row.opened_at),
      retryAt: iso(row.retry_at),
    },
    counts: { pending: row.pending, delivered: row.delivered, dead: row.dead, cancelled: row.cancelled },
    lastDead:
      row.dead_since_success !== null && row.last_dead_at
        ? {
            count: row.dead_since_success,
            at: row.last_dead_at.toISOString(),
            statusCode: row.last_dead_status,
            reason: row.last_dead_reason,
          }
        : null,
    previousSecretValidUntil: iso(row.previous_secret_valid_until),
    lastSuccessAt: iso(row.last_success_at),
    recoveredAt: iso(row.recovered_at),
    createdAt: row.created_at.toISOString(),
  }));
}

type DeliveryRow = {
  id: string;
  endpoint_id: string;
  url: string;
  exam_id: string;
  exam_title: string;
  candidate_name: string | null;
  event_type: WebhookDelivery["eventType"];
  status: WebhookDelivery["status"];
  attempts: number;
  next_attempt_at: Date | null;
  created_at: Date;
  delivered_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  dead_reason: WebhookDelivery["deadReason"];
  cancel_reason: WebhookDelivery["cancelReason"];
  payload: unknown;
};

/** Deliveries as the API shows them, newest first. */
export async function readDeliveries(
  filter: { deliveryId?: string; status?: string; endpointId?: string; examId?: string; limit?: number },
  client?: RawQueryable,
): Promise<(WebhookDelivery & { payload: unknown })[]> {
  const rows = await queryRows<DeliveryRow>(
    sql`SELECT d.id, d.endpoint_id::text AS endpoint_id, w.url, d.exam_id::text AS exam_id, x.title AS exam_title,
               e.name AS candidate_name, d.event_type, d.status,
               d.attempts, d.next_attempt_at, d.created_at, d.delivered_at, d.last_status, d.last_error,
               d.dead_reason, d.cancel_reason, d.payload
        FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
        JOIN exams x ON x.id = d.exam_id
        LEFT JOIN attempts a ON a.id = d.attempt_id
        LEFT JOIN enrollments e ON e.id = a.enrollment_id
        WHERE (${filter.deliveryId ?? null}::text IS NULL OR d.id = ${filter.deliveryId ?? null}::text)
          AND (${filter.status ?? null}::text IS NULL OR d.status = ${filter.status ?? null}::text)
          AND (${filter.endpointId ?? null}::uuid IS NULL OR d.endpoint_id = ${filter.endpointId ?? null}::uuid)
          AND (${filter.examId ?? null}::uuid IS NULL OR d.exam_id = ${filter.examId ?? null}::uuid)
        ORDER BY d.created_at DESC, d.id DESC
        LIMIT ${filter.limit ?? 100}`,
    client,
  );
  return rows.map((row) => ({
    id: row.id,
    endpointId: row.endpoint_id,
    endpointUrl: row.url,
    examId: row.exam_id,
    examTitle: row.exam_title,
    candidateName: row.candidate_name,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === "pending" ? iso(row.next_attempt_at) : null,
    createdAt: row.created_at.toISOString(),
    deliveredAt: iso(row.delivered_at),
    lastStatus: row.last_status,
    lastError: row.last_error,
    deadReason: row.dead_reason,
    cancelReason: row.cancel_reason,
    payload: row.payload,
  }));
}

/** Drops the payload (lists do not carry it). */
export function withoutPayload(delivery: WebhookDelivery & { payload: unknown }): WebhookDelivery {
  const { payload, ...rest } = delivery;
  void payload;
  return rest;
}

/** Every try of one delivery, oldest first. */
export async function readAttempts(deliveryId: string, client?: RawQueryable): Promise<DeliveryAttempt[]> {
  const rows = await queryRows<{
    at: Date;
    status_code: number | null;
    latency_ms: number;
    error: string | null;
    response_snippet: string | null;
    outcome: DeliveryAttempt["outcome"];
  }>(
    sql`SELECT at, status_code, latency_ms, error, response_snippet, outcome FROM webhook_attempts
        WHERE delivery_id = ${deliveryId} ORDER BY at, id`,
    client,
  );
  return rows.map((row) => ({
    at: row.at.toISOString(),
    statusCode: row.status_code,
    latencyMs: row.latency_ms,
    error: row.error,
    responseSnippet: row.response_snippet,
    outcome: row.outcome,
  }));
}
