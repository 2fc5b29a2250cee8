-- AlterTable
ALTER TABLE "device_heartbeats" ADD COLUMN     "deadline_seen" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "device_offline_spans" (
    "id" UUID NOT NULL,
    "attempt_id" UUID NOT NULL,
    "device_id" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),
    "cause" TEXT NOT NULL,

    CONSTRAINT "device_offline_spans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "time_extensions" (
    "id" UUID NOT NULL,
    "exam_id" UUID NOT NULL,
    "enrollment_id" UUID NOT NULL,
    "attempt_id" UUID,
    "seconds" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "staff_user_id" UUID,
    "actor_label" TEXT NOT NULL,
    "request_key" TEXT,
    "previous_deadline" TIMESTAMPTZ(3),
    "new_deadline" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "acknowledged_at" TIMESTAMPTZ(3),
    "acknowledged_device_id" TEXT,

    CONSTRAINT "time_extensions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "device_offline_spans_attempt_id_started_at_idx" ON "device_offline_spans"("attempt_id", "started_at");

-- CreateIndex
CREATE INDEX "time_extensions_exam_id_created_at_idx" ON "time_extensions"("exam_id", "created_at");

-- CreateIndex
CREATE INDEX "time_extensions_enrollment_id_created_at_idx" ON "time_extensions"("enrollment_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "time_extensions_enrollment_id_request_key_key" ON "time_extensions"("enrollment_id", "request_key");

-- AddForeignKey
ALTER TABLE "device_offline_spans" ADD CONSTRAINT "device_offline_spans_attempt_id_fkey" FOREIGN KEY ("attempt_id") REFERENCES "attempts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "time_extensions" ADD CONSTRAINT "time_extensions_enrollment_id_fkey" FOREIGN KEY ("enrollment_id") REFERENCES "enrollments"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- At most one open offline span per device (Prisma cannot express a partial index): two instances noticing
-- the same silence race on INSERT ... ON CONFLICT DO NOTHING and one span results.
CREATE UNIQUE INDEX "device_offline_spans_one_open" ON "device_offline_spans"("attempt_id", "device_id") WHERE "ended_at" IS NULL;

ALTER TABLE "device_offline_spans" ADD CONSTRAINT "device_offline_spans_cause_known" CHECK ("cause" IN ('reported', 'disconnected', 'unreachable'));
ALTER TABLE "time_extensions" ADD CONSTRAINT "time_extensions_seconds_positive" CHECK ("seconds" > 0);
