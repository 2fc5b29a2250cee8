-- AlterTable
ALTER TABLE "submissions" ADD COLUMN     "response" TEXT;

-- CreateTable
CREATE TABLE "late_answers" (
    "id" UUID NOT NULL,
    "attempt_id" UUID NOT NULL,
    "question_id" UUID NOT NULL,
    "value" JSONB NOT NULL,
    "version" INTEGER NOT NULL,
    "device_id" TEXT NOT NULL,
    "client_edited_at" TIMESTAMPTZ(3),
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "via" TEXT NOT NULL,

    CONSTRAINT "late_answers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "device_heartbeats" (
    "attempt_id" UUID NOT NULL,
    "device_id" TEXT NOT NULL,
    "online" BOOLEAN NOT NULL,
    "pending" INTEGER NOT NULL,
    "oldest_pending_ms" INTEGER NOT NULL,
    "last_ack_revision" INTEGER NOT NULL,
    "clock" INTEGER NOT NULL,
    "consecutive_failures" INTEGER NOT NULL,
    "storage_persisted" BOOLEAN,
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "device_heartbeats_pkey" PRIMARY KEY ("attempt_id","device_id")
);

-- CreateIndex
CREATE INDEX "late_answers_attempt_id_received_at_idx" ON "late_answers"("attempt_id", "received_at");

-- CreateIndex
CREATE INDEX "attempts_status_deadline_idx" ON "attempts"("status", "deadline");

-- AddForeignKey
ALTER TABLE "late_answers" ADD CONSTRAINT "late_answers_attempt_id_fkey" FOREIGN KEY ("attempt_id") REFERENCES "attempts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "device_heartbeats" ADD CONSTRAINT "device_heartbeats_attempt_id_fkey" FOREIGN KEY ("attempt_id") REFERENCES "attempts"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Checks Prisma cannot express.
ALTER TABLE "late_answers" ADD CONSTRAINT "late_answers_via_known" CHECK ("via" IN ('autosave', 'submit'));
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_key_has_hash" CHECK (("idempotency_key" IS NULL) = ("request_hash" IS NULL));
