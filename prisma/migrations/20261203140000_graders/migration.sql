-- A grader marks the papers of the exams they are assigned to and does nothing else (docs/results.md, "Graders").
-- Postgres allows ADD VALUE inside the migration's transaction as long as nothing in it uses the new value.
ALTER TYPE "StaffRole" ADD VALUE 'grader';

-- Which graders may mark which exams. Admins mark every exam.
CREATE TABLE "exam_graders" (
    "exam_id" UUID NOT NULL,
    "staff_user_id" UUID NOT NULL,

    CONSTRAINT "exam_graders_pkey" PRIMARY KEY ("exam_id","staff_user_id")
);

-- A grader's home lists their exams: found by the account.
CREATE INDEX "exam_graders_staff_user_id_idx" ON "exam_graders"("staff_user_id");

ALTER TABLE "exam_graders" ADD CONSTRAINT "exam_graders_exam_id_fkey" FOREIGN KEY ("exam_id") REFERENCES "exams"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "exam_graders" ADD CONSTRAINT "exam_graders_staff_user_id_fkey" FOREIGN KEY ("staff_user_id") REFERENCES "staff_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
