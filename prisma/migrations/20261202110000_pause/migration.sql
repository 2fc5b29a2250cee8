-- Pause and resume (docs/sync-protocol.md, "Pause and resume", and ADR 016). A paused attempt's clock is stopped: the sweeper
-- and every overdue check skip it, and resuming moves its deadline by exactly the time it was paused.

-- A whole-exam pause: candidates who start while it lasts start paused.
ALTER TABLE "exams" ADD COLUMN "paused_at" TIMESTAMPTZ(3),
ADD COLUMN "pause_reason" TEXT;

ALTER TABLE "attempts" ADD COLUMN "paused_at" TIMESTAMPTZ(3),
ADD COLUMN "pause_reason" TEXT;

-- Every pause and resume, in order: the history proctors and admins read, and the idempotency record (the
-- first response is replayed for the same key and body, as for submissions.response).
CREATE TABLE "exam_pauses" (
    "id" UUID NOT NULL,
    "exam_id" UUID NOT NULL,
    "action" TEXT NOT NULL,
    "enrollment_ids" UUID[],
    "reason" TEXT,
    "staff_user_id" UUID,
    "actor_label" TEXT NOT NULL,
    "request_key" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "affected" INTEGER NOT NULL DEFAULT 0,
    "response" TEXT,

    CONSTRAINT "exam_pauses_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "exam_pauses_exam_id_at_idx" ON "exam_pauses"("exam_id", "at");

CREATE UNIQUE INDEX "exam_pauses_exam_id_request_key_key" ON "exam_pauses"("exam_id", "request_key");

ALTER TABLE "exam_pauses" ADD CONSTRAINT "exam_pauses_exam_id_fkey" FOREIGN KEY ("exam_id") REFERENCES "exams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "exam_pauses" ADD CONSTRAINT "exam_pauses_action_check" CHECK ("action" IN ('pause', 'resume'));
