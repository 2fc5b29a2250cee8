-- Results (issue 15, docs/results.md): the current result of every submitted attempt, every earlier version of
-- it, the marks people give, and the decisions on late answers. Scores are whole units of 1/10,000 of a point
-- (lib/shared/scoring/score-units.ts), held in BIGINT so no total ever drifts.

ALTER TABLE "exams" ADD COLUMN "results_released_at" TIMESTAMPTZ(3),
ADD COLUMN "second_marking" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "results_detail" TEXT NOT NULL DEFAULT 'per_question';
ALTER TABLE "exams" ADD CONSTRAINT "exams_results_detail_known" CHECK ("results_detail" IN ('total', 'per_question'));

ALTER TABLE "questions" ADD COLUMN "rubric" TEXT NOT NULL DEFAULT '';

-- CreateTable: one row per submitted attempt, its newest version (a copy of result_versions' newest row, kept so
-- lists and exports read one row per candidate).
CREATE TABLE "results" (
    "attempt_id" UUID NOT NULL,
    "exam_id" UUID NOT NULL,
    "submission_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "score_units" BIGINT NOT NULL,
    "max_units" BIGINT NOT NULL,
    "pending" INTEGER NOT NULL,
    "questions" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "results_pkey" PRIMARY KEY ("attempt_id"),
    CONSTRAINT "results_scores_sane" CHECK ("score_units" >= 0 AND "score_units" <= "max_units" AND "pending" >= 0)
);
CREATE INDEX "results_exam_id_idx" ON "results"("exam_id");
ALTER TABLE "results" ADD CONSTRAINT "results_attempt_id_fkey" FOREIGN KEY ("attempt_id") REFERENCES "attempts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "results" ADD CONSTRAINT "results_exam_id_fkey" FOREIGN KEY ("exam_id") REFERENCES "exams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable: every version of every result, with who, when and why. Append-only.
CREATE TABLE "result_versions" (
    "id" UUID NOT NULL,
    "attempt_id" UUID NOT NULL,
    "exam_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "submission_id" UUID NOT NULL,
    "score_units" BIGINT NOT NULL,
    "max_units" BIGINT NOT NULL,
    "pending" INTEGER NOT NULL,
    "questions" JSONB NOT NULL,
    "cause" TEXT NOT NULL,
    "actor_type" TEXT NOT NULL,
    "staff_user_id" UUID,
    "actor_label" TEXT NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "result_versions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "result_versions_cause_known" CHECK ("cause" IN ('submitted', 'regraded', 'graded', 'late_answer_accepted', 'late_answer_rejected', 'settled'))
);
CREATE UNIQUE INDEX "result_versions_attempt_id_version_key" ON "result_versions"("attempt_id", "version");
CREATE INDEX "result_versions_exam_id_created_at_idx" ON "result_versions"("exam_id", "created_at");
ALTER TABLE "result_versions" ADD CONSTRAINT "result_versions_attempt_id_fkey" FOREIGN KEY ("attempt_id") REFERENCES "attempts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable: a person's mark on one answer. `marker` is 'first', 'second' (double marking) or 'final' (an
-- admin settling a disagreement). `revision` is the optimistic check two graders on one answer go through.
CREATE TABLE "grades" (
    "id" UUID NOT NULL,
    "attempt_id" UUID NOT NULL,
    "question_id" UUID NOT NULL,
    "marker" TEXT NOT NULL,
    "units" BIGINT NOT NULL,
    "comment" TEXT NOT NULL DEFAULT '',
    "staff_user_id" UUID,
    "actor_label" TEXT NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "grades_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "grades_marker_known" CHECK ("marker" IN ('first', 'second', 'final')),
    CONSTRAINT "grades_units_sane" CHECK ("units" >= 0)
);
CREATE UNIQUE INDEX "grades_attempt_id_question_id_marker_key" ON "grades"("attempt_id", "question_id", "marker");
CREATE INDEX "grades_question_id_idx" ON "grades"("question_id");
ALTER TABLE "grades" ADD CONSTRAINT "grades_attempt_id_fkey" FOREIGN KEY ("attempt_id") REFERENCES "attempts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "grades" ADD CONSTRAINT "grades_question_id_fkey" FOREIGN KEY ("question_id") REFERENCES "questions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable: staff's decision on a late answer. Accepting puts its value into the result, the frozen paper and
-- its digest never change.
CREATE TABLE "late_answer_decisions" (
    "late_answer_id" UUID NOT NULL,
    "attempt_id" UUID NOT NULL,
    "decision" TEXT NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "staff_user_id" UUID,
    "actor_label" TEXT NOT NULL,
    "decided_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "late_answer_decisions_pkey" PRIMARY KEY ("late_answer_id"),
    CONSTRAINT "late_answer_decisions_known" CHECK ("decision" IN ('accepted', 'rejected'))
);
CREATE INDEX "late_answer_decisions_attempt_id_idx" ON "late_answer_decisions"("attempt_id");
ALTER TABLE "late_answer_decisions" ADD CONSTRAINT "late_answer_decisions_late_answer_id_fkey" FOREIGN KEY ("late_answer_id") REFERENCES "late_answers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Result versions are never edited or deleted by the application (as audit_events, migration
-- 20261201160000_audit_log). A cascade from a deleted exam or attempt is a DELETE too: those are refused only
-- for rows whose attempt still exists, so deleting a draft exam's data still works.
CREATE FUNCTION "result_versions_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''DELETE'' AND NOT EXISTS (SELECT 1 FROM attempts WHERE id = OLD.attempt_id) THEN
    RETURN OLD\073
  END IF\073
  RAISE EXCEPTION ''result_versions is append-only: % is refused'', TG_OP USING ERRCODE = ''insufficient_privilege''\073
END\073
';

CREATE TRIGGER "result_versions_append_only"
  BEFORE UPDATE OR DELETE ON "result_versions"
  FOR EACH ROW EXECUTE FUNCTION "result_versions_refuse_change"();

-- CreateTable: papers whose result must be computed again (a submit, a corrected key, a reopened paper
-- resubmitted). Written in the same transaction as the change, drained by every instance's results worker
-- (lib/server/results/result-jobs.ts) with FOR UPDATE SKIP LOCKED, and deleted in the transaction that writes the
-- result: a crash in between leaves the job for the next drain, never a lost result.
CREATE TABLE "result_jobs" (
    "attempt_id" UUID NOT NULL,
    "exam_id" UUID NOT NULL,
    "cause" TEXT NOT NULL,
    "actor_type" TEXT NOT NULL,
    "staff_user_id" UUID,
    "actor_label" TEXT NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "queued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "result_jobs_pkey" PRIMARY KEY ("attempt_id")
);
CREATE INDEX "result_jobs_queued_at_idx" ON "result_jobs"("queued_at");
ALTER TABLE "result_jobs" ADD CONSTRAINT "result_jobs_attempt_id_fkey" FOREIGN KEY ("attempt_id") REFERENCES "attempts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
