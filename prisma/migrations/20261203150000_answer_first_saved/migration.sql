-- When an answer was first stored (issue 15, statistics: time from first to last edit). Null for answers stored
-- before this column existed, and for rows written other than by the autosave statement: unknown, not zero.
ALTER TABLE "answers" ADD COLUMN "first_saved_at" TIMESTAMPTZ(3);
