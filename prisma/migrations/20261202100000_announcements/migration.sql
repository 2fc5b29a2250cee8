-- Announcements from staff to an exam's candidates, and the receipts of the candidates' devices
-- (docs/sync-protocol.md, "Announcements").

-- CreateTable
CREATE TABLE "announcements" (
    "id" UUID NOT NULL,
    "exam_id" UUID NOT NULL,
    "message" TEXT NOT NULL,
    "enrollment_ids" UUID[],
    "staff_user_id" UUID,
    "actor_label" TEXT NOT NULL,
    "request_key" TEXT,
    "sent_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "announcements_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "announcement_receipts" (
    "announcement_id" UUID NOT NULL,
    "attempt_id" UUID NOT NULL,
    "device_id" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "announcement_receipts_pkey" PRIMARY KEY ("announcement_id","attempt_id","device_id")
);

-- CreateIndex
CREATE INDEX "announcements_exam_id_sent_at_idx" ON "announcements"("exam_id", "sent_at");

-- CreateIndex
CREATE UNIQUE INDEX "announcements_exam_id_request_key_key" ON "announcements"("exam_id", "request_key");

-- CreateIndex
CREATE INDEX "announcement_receipts_attempt_id_idx" ON "announcement_receipts"("attempt_id");

-- AddForeignKey
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_exam_id_fkey" FOREIGN KEY ("exam_id") REFERENCES "exams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "announcement_receipts" ADD CONSTRAINT "announcement_receipts_announcement_id_fkey" FOREIGN KEY ("announcement_id") REFERENCES "announcements"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "announcement_receipts" ADD CONSTRAINT "announcement_receipts_attempt_id_fkey" FOREIGN KEY ("attempt_id") REFERENCES "attempts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- What Prisma cannot say: the message is stored trimmed and of a readable length (the API trims before it
-- checks, this is the backstop), and a selection is never empty (an empty array would reach nobody, while
-- "everyone" is NULL). No semicolon in these comments: Prisma's runner splits the script at every one.
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_message_length" CHECK ("message" = btrim("message") AND char_length("message") BETWEEN 1 AND 2000);
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_selection_not_empty" CHECK ("enrollment_ids" IS NULL OR cardinality("enrollment_ids") > 0);
