-- Reopening a submitted attempt (ADR 017). The attempt keeps ONE current submission (submissions.attempt_id
-- stays unique). A reopening moves that row, unchanged, into submission_history in the same transaction, and
-- the next submit creates version = the highest version in history + 1.

-- AlterTable
ALTER TABLE "submissions" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "attempt_reopenings" (
    "id" UUID NOT NULL,
    "attempt_id" UUID NOT NULL,
    "exam_id" UUID NOT NULL,
    "superseded_submission_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "seconds" INTEGER NOT NULL,
    "previous_deadline" TIMESTAMPTZ(3) NOT NULL,
    "new_deadline" TIMESTAMPTZ(3) NOT NULL,
    "staff_user_id" UUID,
    "actor_label" TEXT NOT NULL,
    "request_key" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "response" TEXT NOT NULL,

    CONSTRAINT "attempt_reopenings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "submission_history" (
    "id" UUID NOT NULL,
    "attempt_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "idempotency_key" TEXT,
    "request_hash" TEXT,
    "digest" TEXT NOT NULL,
    "client_digest" TEXT,
    "receipt" TEXT NOT NULL,
    "source" "SubmissionSource" NOT NULL,
    "submitted_at" TIMESTAMPTZ(3) NOT NULL,
    "response" TEXT,
    "superseded_at" TIMESTAMPTZ(3) NOT NULL,
    "reopening_id" UUID NOT NULL,
    -- The frozen paper this submission's digest covers, { questionId: value }, copied from answers when it is
    -- superseded: the candidate's later edits change answers, and the earlier paper must stay readable and
    -- checkable against its receipt.
    "paper" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "submission_history_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "attempt_reopenings_exam_id_at_idx" ON "attempt_reopenings"("exam_id", "at");

-- CreateIndex
CREATE UNIQUE INDEX "attempt_reopenings_attempt_id_request_key_key" ON "attempt_reopenings"("attempt_id", "request_key");

-- CreateIndex
CREATE UNIQUE INDEX "submission_history_attempt_id_version_key" ON "submission_history"("attempt_id", "version");

-- CreateIndex
CREATE INDEX "submission_history_attempt_id_idempotency_key_idx" ON "submission_history"("attempt_id", "idempotency_key");

-- AddForeignKey
ALTER TABLE "attempt_reopenings" ADD CONSTRAINT "attempt_reopenings_attempt_id_fkey" FOREIGN KEY ("attempt_id") REFERENCES "attempts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A superseded submission is evidence: like audit_events (migration 20261201160000_audit_log), no UPDATE or
-- DELETE, whatever the application asks. A statement trigger, so even one that matches no row is refused.
-- For the same reason the table has no foreign key: a cascade from attempts would be a DELETE it refuses
-- (and an exam with attempts cannot be deleted anyway, delete-exam.ts). TRUNCATE is left to the operator.
-- The body's semicolons are written \073 in an E'' string: Prisma's migration runner splits at every semicolon, even in comments.
CREATE FUNCTION "submission_history_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  RAISE EXCEPTION ''submission_history is append-only: % is refused'', TG_OP USING ERRCODE = ''insufficient_privilege''\073
END\073
';

CREATE TRIGGER "submission_history_append_only"
  BEFORE UPDATE OR DELETE ON "submission_history"
  FOR EACH STATEMENT EXECUTE FUNCTION "submission_history_refuse_change"();
