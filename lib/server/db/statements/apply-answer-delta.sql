-- The autosave rule in one statement (docs/sync-protocol.md, "Autosave"; lib/server/answers/apply-answer-delta.ts
-- says why each step is here). Also what a submit applies its final delta with, inside its transaction.
--
-- :attemptId     uuid
-- :enrollmentId  uuid, or null: unscoped (a submit, an emergency import, the benchmark's baseline)
-- :sessionHash   text, or null: the caller's candidate session token hash, checked here (the autosave: the
--                session must still be valid — not expired, not signed out, the join link not revoked — and the
--                enrollment's own); null when the caller's session was read before (or there is no caller)
-- :questionIds   uuid[]   } one element per answer, in the same order
-- :values        text[]   } each value as JSON text, cast to jsonb here
-- :versions      int[]    }
-- :deviceId      text
--
-- One row: session (0/1: the session is valid, or none was to be checked; 0 applies nothing), found (0/1),
-- deadline, accepts_until (deadline + grace; null while paused: no bound), open (0/1), revision (after the bump),
-- applied (question ids whose row changed).
WITH
-- @include live-candidate-session.sql
target AS (
  SELECT a.id, a.deadline,
         CASE WHEN a.paused_at IS NULL THEN a.deadline + make_interval(secs => e.grace_seconds) END AS accepts_until
  FROM attempts a JOIN exams e ON e.id = a.exam_id
  WHERE a.id = :attemptId::uuid AND (:enrollmentId::uuid IS NULL OR a.enrollment_id = :enrollmentId::uuid)
    AND (:sessionHash::text IS NULL OR a.enrollment_id IN (SELECT enrollment_id FROM live_session))
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
  (SELECT ok FROM session_ok)::int AS session,
  (SELECT count(*) FROM target)::int AS found,
  (SELECT deadline FROM target) AS deadline,
  (SELECT accepts_until FROM target) AS accepts_until,
  (SELECT count(*) FROM att)::int AS open,
  COALESCE((SELECT revision FROM bumped), (SELECT revision FROM att)) AS revision,
  COALESCE((SELECT array_agg(question_id::text) FROM upserted), ARRAY[]::text[]) AS applied
