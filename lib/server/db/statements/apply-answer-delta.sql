-- The autosave rule in one statement (docs/sync-protocol.md, "Autosave"; lib/server/answers/apply-answer-delta.ts
-- says why each step is here). Also what a submit applies its final delta with, inside its transaction.
--
-- :attemptId     uuid
-- :enrollmentId  uuid, or null: unscoped (a submit, an emergency import, the benchmark's baseline)
-- :questionIds   uuid[]   } one element per answer, in the same order
-- :values        text[]   } each value as JSON text, cast to jsonb here
-- :versions      int[]    }
-- :deviceId      text
--
-- One row: found (0/1), deadline, open (0/1), revision (after the bump), applied (question ids whose row changed).
WITH target AS (
  SELECT a.id, a.deadline
  FROM attempts a
  WHERE a.id = :attemptId::uuid AND (:enrollmentId::uuid IS NULL OR a.enrollment_id = :enrollmentId::uuid)
),
att AS (
  SELECT a.id, a.revision
  FROM attempts a JOIN exams e ON e.id = a.exam_id
  WHERE a.id = (SELECT id FROM target)
    AND a.status = 'in_progress'
    -- A paused attempt stays open even past deadline + grace (ADR 016): edits made before the pause keep syncing.
    AND (a.paused_at IS NOT NULL OR clock_timestamp() <= a.deadline + make_interval(secs => e.grace_seconds))
  FOR UPDATE OF a
),
-- @include upsert-answers.sql
bumped AS (
  UPDATE attempts SET revision = attempts.revision + 1
  FROM att
  WHERE attempts.id = att.id AND EXISTS (SELECT 1 FROM upserted)
  RETURNING attempts.revision
)
SELECT
  (SELECT count(*) FROM target)::int AS found,
  (SELECT deadline FROM target) AS deadline,
  (SELECT count(*) FROM att)::int AS open,
  COALESCE((SELECT revision FROM bumped), (SELECT revision FROM att)) AS revision,
  COALESCE((SELECT array_agg(question_id::text) FROM upserted), ARRAY[]::text[]) AS applied
