-- The caller's candidate session, checked inside the statement that uses it (ADR 021): two CTEs, written once for
-- every statement that folds the session check in (apply-answer-delta.sql, read-attempt-for-heartbeat.sql,
-- read-paper-for-submit.sql), which include it with `-- @include live-candidate-session.sql` right after `WITH`. The conditions are
-- findCandidateSession's (lib/server/auth/sessions.ts): change both together.
--
-- :sessionHash   text, or null: the session token's hash; null when the caller's session was read before (or
--                there is no caller): then `session_ok` is true and `live_session` is empty
--
-- live_session: the session's enrollment when it is valid (not expired, not signed out, the link not revoked).
-- session_ok:   one row, `ok`: true when no session was to be checked or it is valid.
live_session AS (
  SELECT s.enrollment_id
  FROM sessions s JOIN enrollments en ON en.id = s.enrollment_id
  WHERE :sessionHash::text IS NOT NULL AND s.token_hash = :sessionHash::text AND s.kind = 'candidate'
    AND s.expires_at > now() AND en.join_revoked_at IS NULL
),
session_ok AS (
  SELECT :sessionHash::text IS NULL OR EXISTS (SELECT 1 FROM live_session) AS ok
),
