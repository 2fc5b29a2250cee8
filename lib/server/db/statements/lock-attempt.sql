-- Locks one attempt's row for the rest of the transaction (lib/server/attempts/with-locked-attempt.ts): what
-- serialises submit, force-submit, extra time, the emergency import, the sweeper and autosave. `overdue` is
-- judged by the database's clock, under the lock; a paused attempt is never overdue (its clock is stopped: ADR 016).
--
-- :attemptId  uuid
SELECT a.id::text AS id, a.exam_id::text AS exam_id, a.enrollment_id::text AS enrollment_id, a.status::text AS status,
       a.paused_at IS NULL AND clock_timestamp() > a.deadline + make_interval(secs => e.grace_seconds) AS overdue
FROM attempts a JOIN exams e ON e.id = a.exam_id
WHERE a.id = :attemptId::uuid
FOR UPDATE OF a
