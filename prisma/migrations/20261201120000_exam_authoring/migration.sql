-- AlterEnum
ALTER TYPE "ExamStatus" ADD VALUE 'archived';

-- AlterTable
ALTER TABLE "exams" ADD COLUMN     "late_answers" TEXT NOT NULL DEFAULT 'keep_for_review',
ADD COLUMN     "results_visibility" TEXT NOT NULL DEFAULT 'after_release',
ADD COLUMN     "revision" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "shuffle_options" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "shuffle_questions" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable: every attempt gets its seed from the database, existing ones too.
ALTER TABLE "attempts" ADD COLUMN     "shuffle_seed" INTEGER NOT NULL DEFAULT (floor(random() * 2147483647))::integer;

ALTER TABLE "exams" ADD CONSTRAINT "exams_late_answers_known" CHECK ("late_answers" IN ('keep_for_review', 'discard'));
ALTER TABLE "exams" ADD CONSTRAINT "exams_results_visibility_known" CHECK ("results_visibility" IN ('never', 'after_release', 'immediately'));

-- AlterTable
ALTER TABLE "questions" ADD COLUMN     "exact_match" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "scoring" TEXT,
ADD COLUMN     "ungraded" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "questions" ADD CONSTRAINT "questions_scoring_known" CHECK ("scoring" IS NULL OR "scoring" IN ('partial', 'all_or_nothing'));

-- CreateTable
CREATE TABLE "exam_edits" (
    "id" UUID NOT NULL,
    "exam_id" UUID NOT NULL,
    "question_id" UUID,
    "staff_user_id" UUID,
    "actor_label" TEXT NOT NULL,
    "field" TEXT NOT NULL,
    "before" JSONB,
    "after" JSONB,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "exam_edits_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "exam_edits_exam_id_at_idx" ON "exam_edits"("exam_id", "at");

-- AddForeignKey
ALTER TABLE "exam_edits" ADD CONSTRAINT "exam_edits_exam_id_fkey" FOREIGN KEY ("exam_id") REFERENCES "exams"("id") ON DELETE CASCADE ON UPDATE CASCADE;
