-- Results delivery (issue 16, ADR 018): receivers per exam, the outbox of deliveries written in the transaction of
-- the event they announce, every try of every delivery, and one shared circuit breaker per receiver.

-- CreateTable: a receiver of an exam's events. Deleting one sets deleted_at (its history stays readable).
CREATE TABLE "webhook_endpoints" (
    "id" UUID NOT NULL,
    "exam_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[] NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabled_reason" TEXT,
    "secret" TEXT NOT NULL,
    "previous_secret" TEXT,
    "previous_secret_valid_until" TIMESTAMPTZ(3),
    "last_success_at" TIMESTAMPTZ(3),
    "recovered_at" TIMESTAMPTZ(3),
    "deleted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_endpoints_disabled_reason_known" CHECK ("disabled_reason" IS NULL OR "disabled_reason" IN ('gone_410'))
);
CREATE INDEX "webhook_endpoints_exam_id_idx" ON "webhook_endpoints"("exam_id");
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_exam_id_fkey" FOREIGN KEY ("exam_id") REFERENCES "exams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable: the outbox. id is the Standard Webhooks webhook-id (msg_ and 32 hex digits), stable across tries.
-- lease_until and claim_token: a worker's claim, which expires if the worker dies mid-send.
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "exam_id" UUID NOT NULL,
    "event_type" TEXT NOT NULL,
    "attempt_id" UUID NOT NULL,
    "submission_id" UUID,
    "result_version" INTEGER,
    "payload" JSONB NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) DEFAULT CURRENT_TIMESTAMP,
    "lease_until" TIMESTAMPTZ(3),
    "claim_token" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMPTZ(3),
    "last_status" INTEGER,
    "last_error" TEXT,
    "dead_reason" TEXT,
    "cancel_reason" TEXT,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_deliveries_event_known" CHECK ("event_type" IN ('submission.created', 'result.released', 'result.updated')),
    CONSTRAINT "webhook_deliveries_status_known" CHECK ("status" IN ('pending', 'delivered', 'dead', 'cancelled')),
    CONSTRAINT "webhook_deliveries_dead_reason_known" CHECK ("dead_reason" IS NULL OR "dead_reason" IN ('final_status', 'attempts_exhausted', 'gone_410')),
    CONSTRAINT "webhook_deliveries_cancel_reason_known" CHECK ("cancel_reason" IS NULL OR "cancel_reason" IN ('cancelled_by_staff', 'endpoint_disabled', 'endpoint_deleted', 'superseded', 'submission_voided'))
);
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries"("next_attempt_at") WHERE "status" = 'pending';
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_idx" ON "webhook_deliveries"("endpoint_id", "created_at");
CREATE INDEX "webhook_deliveries_status_created_at_idx" ON "webhook_deliveries"("status", "created_at");
CREATE INDEX "webhook_deliveries_exam_id_idx" ON "webhook_deliveries"("exam_id");
CREATE INDEX "webhook_deliveries_endpoint_id_attempt_id_idx" ON "webhook_deliveries"("endpoint_id", "attempt_id");
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable: every request made for a delivery.
CREATE TABLE "webhook_attempts" (
    "id" UUID NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status_code" INTEGER,
    "latency_ms" INTEGER NOT NULL,
    "error" TEXT,
    "response_snippet" TEXT,
    "outcome" TEXT NOT NULL,

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_attempts_outcome_known" CHECK ("outcome" IN ('delivered', 'retry', 'final', 'gone', 'breaker_open'))
);
CREATE INDEX "webhook_attempts_delivery_id_at_idx" ON "webhook_attempts"("delivery_id", "at");
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable: the circuit breaker of one receiver, shared by every instance (read and changed under its row lock).
CREATE TABLE "webhook_breakers" (
    "endpoint_id" UUID NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'closed',
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "opened_at" TIMESTAMPTZ(3),
    "retry_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_breakers_pkey" PRIMARY KEY ("endpoint_id"),
    CONSTRAINT "webhook_breakers_state_known" CHECK ("state" IN ('closed', 'open', 'half_open'))
);
ALTER TABLE "webhook_breakers" ADD CONSTRAINT "webhook_breakers_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The results feed (GET /api/admin/exams/{examId}/results/feed): a gap-free cursor over result versions. feed_xid is
-- the writing transaction's id, feed_seq breaks ties. The feed lists only versions written by transactions older
-- than every transaction still running (pg_snapshot_xmin), so a version committed late never lands behind a cursor
-- a receiver already passed.
ALTER TABLE "result_versions" ADD COLUMN "feed_xid" xid8 NOT NULL DEFAULT pg_current_xact_id(),
ADD COLUMN "feed_seq" BIGSERIAL NOT NULL;
CREATE INDEX "result_versions_exam_id_feed_idx" ON "result_versions"("exam_id", "feed_xid", "feed_seq");
