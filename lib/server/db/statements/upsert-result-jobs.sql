-- The result-job upsert (lib/server/results/result-jobs.ts), written once for every statement that queues papers
-- for scoring: enqueue-result-jobs.sql (a corrected key, a regrade) and freeze.sql (every submission). Included
-- with `-- @include upsert-result-jobs.sql` after a CTE `to_score` (attempt_id, exam_id, cause, actor_type,
-- staff_user_id, actor_label, reason): one job per paper, scored by the results worker, not here; a paper already
-- queued keeps its one job, now carrying the newest cause and actor. `job` returns the attempt ids queued.
-- Ends with a comma, as every fragment does: the including statement goes on with its next CTE.
job AS (
  INSERT INTO result_jobs (attempt_id, exam_id, cause, actor_type, staff_user_id, actor_label, reason, queued_at)
  SELECT t.attempt_id, t.exam_id, t.cause, t.actor_type, t.staff_user_id, t.actor_label, t.reason, clock_timestamp()
  FROM to_score t
  ON CONFLICT (attempt_id) DO UPDATE
    SET cause = EXCLUDED.cause, actor_type = EXCLUDED.actor_type, staff_user_id = EXCLUDED.staff_user_id,
        actor_label = EXCLUDED.actor_label, reason = EXCLUDED.reason, queued_at = EXCLUDED.queued_at
  RETURNING attempt_id
),
