-- What a submit's one-statement freeze (submit-attempt.sql) is computed from (lib/server/attempts/submit-attempt.ts):
-- the attempt, its paper as it is now, and `row_version`, the attempt row's xmin. Every change to the paper bumps
-- the attempt's revision (apply-answer-delta.sql), and every change of status, deadline or pause updates the row,
-- so an unchanged xmin under the freeze's lock means nothing read here has changed since. Scoped to the caller's
-- enrollment when given (null: unscoped, the benchmark's baseline). `stale_key`: this Idempotency-Key made a
-- submission that an admin has since reopened (ADR 017); such a request takes the locked path.
--
-- :attemptId       uuid
-- :enrollmentId    uuid, or null: unscoped
-- :idempotencyKey  text
SELECT a.id::text AS id, a.status::text AS status, a.deadline, a.exam_id::text AS exam_id,
       a.enrollment_id::text AS enrollment_id, e.grace_seconds, a.paused_at IS NOT NULL AS paused,
       a.xmin::text AS row_version, s.id::text AS submission_id,
       EXISTS (SELECT 1 FROM submission_history h
               WHERE h.attempt_id = a.id AND h.idempotency_key = :idempotencyKey) AS stale_key,
       (SELECT coalesce(json_agg(json_build_object('q', n.question_id::text, 'v', n.value, 'n', n.version, 'd', n.device_id)),
                        '[]'::json)
        FROM answers n WHERE n.attempt_id = a.id) AS paper
FROM attempts a
  JOIN exams e ON e.id = a.exam_id
  LEFT JOIN submissions s ON s.attempt_id = a.id
WHERE a.id = :attemptId::uuid AND (:enrollmentId::uuid IS NULL OR a.enrollment_id = :enrollmentId::uuid)
