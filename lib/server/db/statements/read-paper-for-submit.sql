-- What a submit's one-statement freeze (submit-attempt.sql) is computed from (lib/server/attempts/submit-attempt.ts):
-- the attempt, its paper as it is now, and `row_version`, the attempt row's xmin. Every change to the paper bumps
-- the attempt's revision (apply-answer-delta.sql), and every change of status, deadline or pause updates the row,
-- so an unchanged xmin under the freeze's lock means nothing read here has changed since. Scoped to the caller's
-- enrollment when given (null: unscoped, the benchmark's baseline), and the caller's session checked in the same
-- round trip when the route did not read it (ADR 021). `stale_key`: this Idempotency-Key made a submission that an
-- admin has since reopened (ADR 017); such a request takes the locked path.
--
-- :attemptId       uuid
-- :enrollmentId    uuid, or null: unscoped
-- :idempotencyKey  text
-- :sessionHash     text, or null (live-candidate-session.sql)
--
-- One row: session (0/1: 0 reads nothing else), then the attempt's columns, all null when it is not found.
WITH
-- @include live-candidate-session.sql
found AS (
  SELECT a.id, a.status, a.deadline, a.exam_id, a.enrollment_id, a.paused_at, a.xmin AS row_version
  FROM attempts a
  WHERE a.id = :attemptId::uuid AND (:enrollmentId::uuid IS NULL OR a.enrollment_id = :enrollmentId::uuid)
    AND (:sessionHash::text IS NULL OR a.enrollment_id IN (SELECT enrollment_id FROM live_session))
)
SELECT (SELECT ok FROM session_ok)::int AS session,
       f.id::text AS id, f.status::text AS status, f.deadline, f.exam_id::text AS exam_id,
       f.enrollment_id::text AS enrollment_id, e.grace_seconds, f.paused_at IS NOT NULL AS paused,
       f.row_version::text AS row_version, s.id::text AS submission_id,
       EXISTS (SELECT 1 FROM submission_history h
               WHERE h.attempt_id = f.id AND h.idempotency_key = :idempotencyKey) AS stale_key,
       (SELECT coalesce(json_agg(json_build_object('q', n.question_id::text, 'v', n.value, 'n', n.version, 'd', n.device_id)),
                        '[]'::json)
        FROM answers n WHERE n.attempt_id = f.id) AS paper
FROM session_ok
  LEFT JOIN found f ON true
  LEFT JOIN exams e ON e.id = f.exam_id
  LEFT JOIN submissions s ON s.attempt_id = f.id
