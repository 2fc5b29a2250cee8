-- CreateEnum
CREATE TYPE "StaffRole" AS ENUM ('admin', 'proctor');

-- CreateEnum
CREATE TYPE "ExamStatus" AS ENUM ('draft', 'published', 'closed');

-- CreateEnum
CREATE TYPE "QuestionType" AS ENUM ('single_choice', 'multiple_choice', 'short_text', 'essay', 'numeric');

-- CreateEnum
CREATE TYPE "AttemptStatus" AS ENUM ('in_progress', 'submitted');

-- CreateEnum
CREATE TYPE "SubmissionSource" AS ENUM ('candidate', 'proctor', 'auto');

-- CreateEnum
CREATE TYPE "SessionKind" AS ENUM ('staff', 'candidate');

-- CreateTable
CREATE TABLE "staff_users" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" "StaffRole" NOT NULL,
    "password_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "staff_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sessions" (
    "id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "kind" "SessionKind" NOT NULL,
    "staff_user_id" UUID,
    "enrollment_id" UUID,
    "user_agent" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "exams" (
    "id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "rules" TEXT NOT NULL DEFAULT '',
    "duration_seconds" INTEGER NOT NULL,
    "grace_seconds" INTEGER NOT NULL DEFAULT 60,
    "opens_at" TIMESTAMPTZ(3),
    "closes_at" TIMESTAMPTZ(3),
    "status" "ExamStatus" NOT NULL DEFAULT 'draft',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "exams_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "questions" (
    "id" UUID NOT NULL,
    "exam_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "type" "QuestionType" NOT NULL,
    "prompt" TEXT NOT NULL,
    "options" JSONB,
    "answer_key" JSONB,
    "tolerance" DOUBLE PRECISION,
    "points" DOUBLE PRECISION NOT NULL DEFAULT 1,

    CONSTRAINT "questions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "enrollments" (
    "id" UUID NOT NULL,
    "exam_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "join_token_hash" TEXT NOT NULL,
    "token_generation" INTEGER NOT NULL DEFAULT 1,
    "join_revoked_at" TIMESTAMPTZ(3),
    "extra_seconds" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "enrollments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "attempts" (
    "id" UUID NOT NULL,
    "enrollment_id" UUID NOT NULL,
    "exam_id" UUID NOT NULL,
    "status" "AttemptStatus" NOT NULL DEFAULT 'in_progress',
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deadline" TIMESTAMPTZ(3) NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "answers" (
    "id" UUID NOT NULL,
    "attempt_id" UUID NOT NULL,
    "question_id" UUID NOT NULL,
    "value" JSONB NOT NULL,
    "version" INTEGER NOT NULL,
    "device_id" TEXT NOT NULL,
    "saved_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "answers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "submissions" (
    "id" UUID NOT NULL,
    "attempt_id" UUID NOT NULL,
    "idempotency_key" TEXT,
    "request_hash" TEXT,
    "digest" TEXT NOT NULL,
    "client_digest" TEXT,
    "receipt" TEXT NOT NULL,
    "source" "SubmissionSource" NOT NULL,
    "submitted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "submissions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "exam_proctors" (
    "exam_id" UUID NOT NULL,
    "staff_user_id" UUID NOT NULL,

    CONSTRAINT "exam_proctors_pkey" PRIMARY KEY ("exam_id","staff_user_id")
);

-- CreateTable
CREATE TABLE "audit_events" (
    "id" UUID NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_type" TEXT NOT NULL,
    "actor_id" UUID,
    "action" TEXT NOT NULL,
    "exam_id" UUID,
    "enrollment_id" UUID,
    "attempt_id" UUID,
    "data" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "staff_users_email_key" ON "staff_users"("email");

-- CreateIndex
CREATE UNIQUE INDEX "sessions_token_hash_key" ON "sessions"("token_hash");

-- CreateIndex
CREATE INDEX "sessions_staff_user_id_idx" ON "sessions"("staff_user_id");

-- CreateIndex
CREATE INDEX "sessions_enrollment_id_idx" ON "sessions"("enrollment_id");

-- CreateIndex
CREATE UNIQUE INDEX "questions_exam_id_position_key" ON "questions"("exam_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "enrollments_join_token_hash_key" ON "enrollments"("join_token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "enrollments_exam_id_email_key" ON "enrollments"("exam_id", "email");

-- CreateIndex
CREATE UNIQUE INDEX "attempts_enrollment_id_key" ON "attempts"("enrollment_id");

-- CreateIndex
CREATE INDEX "attempts_exam_id_idx" ON "attempts"("exam_id");

-- CreateIndex
CREATE UNIQUE INDEX "answers_attempt_id_question_id_key" ON "answers"("attempt_id", "question_id");

-- CreateIndex
CREATE UNIQUE INDEX "submissions_attempt_id_key" ON "submissions"("attempt_id");

-- CreateIndex
CREATE INDEX "audit_events_exam_id_at_idx" ON "audit_events"("exam_id", "at");

-- CreateIndex
CREATE INDEX "audit_events_enrollment_id_at_idx" ON "audit_events"("enrollment_id", "at");

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_staff_user_id_fkey" FOREIGN KEY ("staff_user_id") REFERENCES "staff_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_enrollment_id_fkey" FOREIGN KEY ("enrollment_id") REFERENCES "enrollments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "questions" ADD CONSTRAINT "questions_exam_id_fkey" FOREIGN KEY ("exam_id") REFERENCES "exams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_exam_id_fkey" FOREIGN KEY ("exam_id") REFERENCES "exams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attempts" ADD CONSTRAINT "attempts_enrollment_id_fkey" FOREIGN KEY ("enrollment_id") REFERENCES "enrollments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attempts" ADD CONSTRAINT "attempts_exam_id_fkey" FOREIGN KEY ("exam_id") REFERENCES "exams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "answers" ADD CONSTRAINT "answers_attempt_id_fkey" FOREIGN KEY ("attempt_id") REFERENCES "attempts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "answers" ADD CONSTRAINT "answers_question_id_fkey" FOREIGN KEY ("question_id") REFERENCES "questions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_attempt_id_fkey" FOREIGN KEY ("attempt_id") REFERENCES "attempts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "exam_proctors" ADD CONSTRAINT "exam_proctors_exam_id_fkey" FOREIGN KEY ("exam_id") REFERENCES "exams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "exam_proctors" ADD CONSTRAINT "exam_proctors_staff_user_id_fkey" FOREIGN KEY ("staff_user_id") REFERENCES "staff_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Checks Prisma cannot express. They make impossible rows impossible even for raw SQL.
ALTER TABLE "exams" ADD CONSTRAINT "exams_duration_positive" CHECK ("duration_seconds" > 0);
ALTER TABLE "exams" ADD CONSTRAINT "exams_grace_nonnegative" CHECK ("grace_seconds" >= 0);
ALTER TABLE "exams" ADD CONSTRAINT "exams_window_ordered" CHECK ("opens_at" IS NULL OR "closes_at" IS NULL OR "opens_at" < "closes_at");
ALTER TABLE "questions" ADD CONSTRAINT "questions_position_positive" CHECK ("position" >= 1);
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_extra_nonnegative" CHECK ("extra_seconds" >= 0);
ALTER TABLE "attempts" ADD CONSTRAINT "attempts_revision_nonnegative" CHECK ("revision" >= 0);
ALTER TABLE "answers" ADD CONSTRAINT "answers_version_range" CHECK ("version" >= 1 AND "version" <= 2147483647);
