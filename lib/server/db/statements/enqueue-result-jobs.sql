-- Queues papers for scoring in the caller's transaction (lib/server/results/result-jobs.ts, enqueueResultJobs),
-- so a job exists exactly when the change that needs it committed: the given attempts, or every submitted attempt
-- of the exam (a corrected key); only submitted ones. The upsert itself is upsert-result-jobs.sql, which every
-- submission's freeze (freeze.sql) shares.
--
-- :examId       uuid, or null (then :attemptIds names the papers)
-- :attemptIds   uuid[], or null (every submitted paper of :examId)
-- :cause        text (ResultCause)
-- :actorType    text ("staff" or "system")
-- :staffUserId  uuid, or null
-- :actorLabel   text
-- :reason       text
--
-- One row per queued paper: attempt_id.
WITH to_score AS (
  SELECT a.id AS attempt_id, a.exam_id, :cause::text AS cause, :actorType::text AS actor_type,
         :staffUserId::uuid AS staff_user_id, :actorLabel::text AS actor_label, :reason::text AS reason
  FROM attempts a
  WHERE (:examId::uuid IS NULL OR a.exam_id = :examId::uuid)
    AND a.status = 'submitted'
    AND (:attemptIds::uuid[] IS NULL OR a.id = ANY(:attemptIds::uuid[]))
),
-- @include upsert-result-jobs.sql
queued AS (SELECT attempt_id::text AS attempt_id FROM job)
SELECT attempt_id FROM queued
