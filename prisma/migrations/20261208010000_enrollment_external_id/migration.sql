-- Who the candidate is (issue 39): an office's own student number beside the name and email, optional, unique
-- within an exam (two candidates of one exam never share one, the same student in two exams may).
ALTER TABLE "enrollments" ADD COLUMN "external_id" TEXT;

-- 1 to 64 characters, as written (the API trims it before it gets here).
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_external_id_length"
  CHECK ("external_id" IS NULL OR char_length("external_id") BETWEEN 1 AND 64);

-- CreateIndex: NULLs are distinct, so any number of candidates may have none.
CREATE UNIQUE INDEX "enrollments_exam_id_external_id_key" ON "enrollments"("exam_id", "external_id");
