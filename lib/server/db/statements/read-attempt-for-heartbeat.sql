-- A heartbeat's attempt (lib/server/heartbeats/record-heartbeat.ts): the caller's own, with the facts the answer
-- carries, and the caller's session checked in the same round trip when the route did not read it (ADR 021).
--
-- :attemptId     uuid
-- :enrollmentId  uuid: the caller's enrollment (someone else's attempt is not found)
-- :sessionHash   text, or null (live-candidate-session.sql)
--
-- One row: session (0/1: 0 reads nothing else), then the attempt's columns, all null when it is not found.
WITH
-- @include live-candidate-session.sql
found AS (
  SELECT a.id, a.exam_id, a.enrollment_id, a.status, a.deadline, a.revision, a.paused_at, a.pause_reason
  FROM attempts a
  WHERE a.id = :attemptId::uuid AND a.enrollment_id = :enrollmentId::uuid
    AND (:sessionHash::text IS NULL OR a.enrollment_id IN (SELECT enrollment_id FROM live_session))
)
SELECT (SELECT ok FROM session_ok)::int AS session,
       found.id::text AS id, found.exam_id::text AS exam_id, found.enrollment_id::text AS enrollment_id,
       found.status::text AS status, found.deadline, found.revision, found.paused_at, found.pause_reason
FROM session_ok LEFT JOIN found ON true
