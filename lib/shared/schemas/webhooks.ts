import { z } from "@/lib/shared/zod";

import { UuidSchema } from "./attempts";

/** The events an endpoint can ask for (issue 16). */
export const WEBHOOK_EVENTS = ["submission.created", "result.released", "result.updated"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const DELIVERY_STATUSES = ["pending", "delivered", "dead", "cancelled"] as const;
export const DEAD_REASONS = ["final_status", "attempts_exhausted", "gone_410"] as const;
export const CANCEL_REASONS = [
  "cancelled_by_staff",
  "endpoint_disabled",
  "endpoint_deleted",
  "superseded",
  "submission_voided",
] as const;
export const BREAKER_STATES = ["closed", "open", "half_open"] as const;
export const ATTEMPT_OUTCOMES = ["delivered", "retry", "final", "gone", "breaker_open"] as const;

/** An http(s) URL of at most 2,000 characters (http to 127.0.0.1 and localhost is allowed: tests, self-hosting). */
export const WebhookUrlSchema = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, "must be an http or https URL");

export const WebhookEventsSchema = z
  .array(z.enum(WEBHOOK_EVENTS))
  .min(1)
  .refine((events) => new Set(events).size === events.length, "each event at most once");

export const CreateWebhookSchema = z.strictObject({
  url: WebhookUrlSchema,
  events: WebhookEventsSchema,
  enabled: z.boolean().optional(),
});
export type CreateWebhookInput = z.infer<typeof CreateWebhookSchema>;

export const UpdateWebhookSchema = z
  .strictObject({
    url: WebhookUrlSchema.optional(),
    events: WebhookEventsSchema.optional(),
    enabled: z.boolean().optional(),
  })
  .refine((value) => Object.keys(value).length > 0, "nothing to change");
export type UpdateWebhookInput = z.infer<typeof UpdateWebhookSchema>;

export const RetryEndpointSchema = z.strictObject({ since: z.iso.datetime({ offset: true }) });

export const WebhookEndpointParamsSchema = z.object({ endpointId: UuidSchema });
/** `msg_` and 32 hex digits: the webhook-id. */
export const DeliveryParamsSchema = z.object({ deliveryId: z.string().regex(/^msg_[0-9a-f]{32}$/) });

export const ListDeliveriesQuerySchema = z.object({
  status: z.enum(DELIVERY_STATUSES).optional(),
  endpointId: UuidSchema.optional(),
  examId: UuidSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const ResultsFeedQuerySchema = z.object({
  after: z
    .string()
    .regex(/^\d{1,20}_\d{1,20}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

const Iso = z.string();

export const WebhookEndpointSchema = z.object({
  id: z.string(),
  examId: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  disabledReason: z.enum(["gone_410"]).nullable(),
  breaker: z.object({
    state: z.enum(BREAKER_STATES),
    consecutiveFailures: z.number().int(),
    openedAt: Iso.nullable(),
    retryAt: Iso.nullable(),
  }),
  counts: z.object({ pending: z.number(), delivered: z.number(), dead: z.number(), cancelled: z.number() }),
  /**
   * The deliveries that ended as dead letters since the endpoint's last success (or ever, with none): how many,
   * and the latest one's end (when, the receiver's last HTTP status, why it died). Null when there are none:
   * with the breaker closed, the receiver is healthy only then.
   */
  lastDead: z
    .object({
      count: z.number().int(),
      at: Iso,
      statusCode: z.number().int().nullable(),
      reason: z.enum(DEAD_REASONS).nullable(),
    })
    .nullable(),
  previousSecretValidUntil: Iso.nullable(),
  lastSuccessAt: Iso.nullable(),
  recoveredAt: Iso.nullable(),
  createdAt: Iso,
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

export const CreatedWebhookSchema = WebhookEndpointSchema.extend({ secret: z.string() });
export const RotatedSecretSchema = z.object({ secret: z.string(), previousSecretValidUntil: Iso });

export const WebhookDeliverySchema = z.object({
  id: z.string(),
  endpointId: z.string(),
  endpointUrl: z.string(),
  examId: z.string(),
  /** The exam's title, and the candidate's name as enrolled (null once erased), for people reading the list. */
  examTitle: z.string(),
  candidateName: z.string().nullable(),
  eventType: z.enum(WEBHOOK_EVENTS),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  nextAttemptAt: Iso.nullable(),
  createdAt: Iso,
  deliveredAt: Iso.nullable(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  deadReason: z.enum(DEAD_REASONS).nullable(),
  cancelReason: z.enum(CANCEL_REASONS).nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const DeliveryAttemptSchema = z.object({
  at: Iso,
  statusCode: z.number().int().nullable(),
  latencyMs: z.number().int(),
  error: z.string().nullable(),
  responseSnippet: z.string().nullable(),
  outcome: z.enum(ATTEMPT_OUTCOMES),
});
export type DeliveryAttempt = z.infer<typeof DeliveryAttemptSchema>;

/** One delivery with its payload and every try; `attempts` is the list here, `attemptCount` the number. */
export const WebhookDeliveryDetailSchema = WebhookDeliverySchema.omit({ attempts: true }).extend({
  payload: z.unknown(),
  attempts: z.array(DeliveryAttemptSchema),
  attemptCount: z.number().int(),
});

export const WebhookAlertsSchema = z.object({ dead: z.number().int(), openBreakers: z.number().int() });

export const ResultFeedItemSchema = z.object({
  cursor: z.string(),
  attemptId: z.string(),
  enrollmentId: z.string(),
  candidate: z.object({ name: z.string(), email: z.string(), externalId: z.string().nullable() }),
  submissionId: z.string(),
  resultVersion: z.number().int(),
  score: z.number(),
  maxScore: z.number(),
  graded: z.boolean(),
  cause: z.string(),
  createdAt: Iso,
});
export const ResultsFeedSchema = z.object({ items: z.array(ResultFeedItemSchema), next: z.string().nullable() });

// ---- The same contract as the pages read it (issue 16 UI): names for the unions and the answers -------------

export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export type DeadReason = (typeof DEAD_REASONS)[number];
export type CancelReason = (typeof CANCEL_REASONS)[number];
export type BreakerState = (typeof BREAKER_STATES)[number];
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** The longest endpoint URL `WebhookUrlSchema` accepts, for the form's hint and its error. */
export const WEBHOOK_URL_MAX = 2_000;

/** A delivery's id, its `webhook-id` (the receiver's idempotency key). */
export const DeliveryIdSchema = DeliveryParamsSchema.shape.deliveryId;

/** `GET /api/admin/exams/{examId}/webhooks` */
export const WebhookEndpointListSchema = z.object({ endpoints: z.array(WebhookEndpointSchema) });
export type WebhookEndpointList = z.infer<typeof WebhookEndpointListSchema>;
/** `POST /api/admin/exams/{examId}/webhooks` 201: the only time, with rotation, that the secret is shown. */
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookSchema>;
/** `POST /api/admin/webhooks/{endpointId}/secret` */
export type RotatedSecret = z.infer<typeof RotatedSecretSchema>;
/** `POST /api/admin/webhooks/{endpointId}/retry` */
export const EndpointRetriedSchema = z.object({ requeued: z.number().int() });
export type EndpointRetried = z.infer<typeof EndpointRetriedSchema>;
/** `GET /api/admin/webhooks/deliveries` */
export const WebhookDeliveryListSchema = z.object({ deliveries: z.array(WebhookDeliverySchema) });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryListSchema>;
/** `GET /api/admin/webhooks/deliveries/{deliveryId}`: `attempts` is the list of tries here. */
export type WebhookDeliveryDetail = z.infer<typeof WebhookDeliveryDetailSchema>;
/** `GET /api/admin/webhooks/alerts`: what the admin header's badge counts. */
export type WebhookAlerts = z.infer<typeof WebhookAlertsSchema>;
