import { z } from "zod";

import { UuidSchema } from "./attempts";

// Results delivery to other systems (issue 16): the endpoints an admin registers per exam, the deliveries the
// outbox sends to them, and each attempt at sending. Names follow the contract the API and the pages share
// (docs/results.md, "Webhooks"): these types are the one definition on both sides of the client/server line.

export const WEBHOOK_EVENTS = ["submission.created", "result.released", "result.updated"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const DELIVERY_STATUSES = ["pending", "delivered", "dead", "cancelled"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const BREAKER_STATES = ["closed", "open", "half_open"] as const;
export type BreakerState = (typeof BREAKER_STATES)[number];

export const DEAD_REASONS = ["final_status", "attempts_exhausted", "gone_410"] as const;
export type DeadReason = (typeof DEAD_REASONS)[number];

export const CANCEL_REASONS = [
  "cancelled_by_staff",
  "endpoint_disabled",
  "endpoint_deleted",
  "superseded",
  "submission_voided",
] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

export const ATTEMPT_OUTCOMES = ["delivered", "retry", "final", "gone", "breaker_open"] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** The longest endpoint URL accepted. */
export const WEBHOOK_URL_MAX = 2_000;

/**
 * An endpoint's URL: http or https only, at most 2,000 characters. Plain http (to 127.0.0.1, say) is allowed:
 * tests and self-hosted receivers on the same machine use it.
 */
export const WebhookUrlSchema = z
  .string()
  .trim()
  .min(1, "a URL is required")
  .max(WEBHOOK_URL_MAX, `at most ${WEBHOOK_URL_MAX} characters`)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, "an http or https URL");

/** At least one event, each once. */
export const WebhookEventsSchema = z
  .array(z.enum(WEBHOOK_EVENTS))
  .min(1, "choose at least one event")
  .refine((events) => new Set(events).size === events.length, "each event once");

/** `POST /api/admin/exams/{examId}/webhooks` */
export const CreateWebhookSchema = z.object({
  url: WebhookUrlSchema,
  events: WebhookEventsSchema,
  enabled: z.boolean().optional(),
});
export type CreateWebhookInput = z.infer<typeof CreateWebhookSchema>;

/** `PATCH /api/admin/webhooks/{endpointId}`: enabling clears `disabledReason`. */
export const UpdateWebhookSchema = z
  .object({ url: WebhookUrlSchema.optional(), events: WebhookEventsSchema.optional(), enabled: z.boolean().optional() })
  .refine((body) => Object.values(body).some((value) => value !== undefined), "nothing to change");
export type UpdateWebhookInput = z.infer<typeof UpdateWebhookSchema>;

/** `POST /api/admin/webhooks/{endpointId}/retry`: every dead or cancelled delivery created since then. */
export const RetryEndpointSchema = z.object({ since: z.iso.datetime({ offset: true }) });
export type RetryEndpointInput = z.infer<typeof RetryEndpointSchema>;

export const WebhookEndpointParamsSchema = z.object({ endpointId: UuidSchema });
/** A delivery's id is its `webhook-id` ("msg_…"), the receiver's idempotency key. */
export const DeliveryIdSchema = z.string().regex(/^msg_[A-Za-z0-9_-]{1,100}$/, "a delivery id (msg_…)");
export const DeliveryParamsSchema = z.object({ deliveryId: DeliveryIdSchema });

/** `GET /api/admin/webhooks/deliveries` filters; newest first. */
export const DeliveryListQuerySchema = z.object({
  status: z.enum(DELIVERY_STATUSES).optional(),
  endpointId: UuidSchema.optional(),
  examId: UuidSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type DeliveryListQuery = z.infer<typeof DeliveryListQuerySchema>;

export type WebhookBreaker = {
  state: BreakerState;
  consecutiveFailures: number;
  openedAt: string | null;
  /** When an open breaker lets one probe through (half-open). */
  retryAt: string | null;
};

export type WebhookEndpoint = {
  id: string;
  examId: string;
  url: string;
  events: WebhookEvent[];
  enabled: boolean;
  /** Set when a receiver answered 410 Gone (the endpoint was disabled for it). */
  disabledReason: "gone_410" | null;
  breaker: WebhookBreaker;
  counts: Record<DeliveryStatus, number>;
  /** While set and in the future, the previous secret still signs beside the new one. */
  previousSecretValidUntil: string | null;
  lastSuccessAt: string | null;
  /** When the endpoint succeeded again after failures (the "recovered" notice). */
  recoveredAt: string | null;
  createdAt: string;
};

/** `POST /api/admin/exams/{examId}/webhooks` answer: the only time (with rotation) the secret is shown. */
export type CreatedWebhookEndpoint = WebhookEndpoint & { secret: string };

/** `GET /api/admin/exams/{examId}/webhooks` */
export type WebhookEndpointList = { endpoints: WebhookEndpoint[] };

/** `POST /api/admin/webhooks/{endpointId}/secret` */
export type RotatedSecret = { secret: string; previousSecretValidUntil: string };

/** `POST /api/admin/webhooks/{endpointId}/retry` */
export type EndpointRetried = { requeued: number };

export type WebhookDelivery = {
  /** The `webhook-id` ("msg_…"), stable across retries. */
  id: string;
  endpointId: string;
  endpointUrl: string;
  examId: string;
  eventType: WebhookEvent;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  deadReason: DeadReason | null;
  cancelReason: CancelReason | null;
};

export type DeliveryAttempt = {
  at: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** The first 500 characters of the receiver's answer, shown as text. */
  responseSnippet: string | null;
  outcome: AttemptOutcome;
};

/** `GET /api/admin/webhooks/deliveries` */
export type WebhookDeliveryList = { deliveries: WebhookDelivery[] };

/**
 * `GET /api/admin/webhooks/deliveries/{deliveryId}`: here `attempts` is the list of attempts (its length is the
 * count the list gives), with the payload as sent.
 */
export type WebhookDeliveryDetail = Omit<WebhookDelivery, "attempts"> & {
  payload: unknown;
  attempts: DeliveryAttempt[];
};

/** `GET /api/admin/webhooks/alerts`: what the admin header's badge counts. */
export type WebhookAlerts = { dead: number; openBreakers: number };
