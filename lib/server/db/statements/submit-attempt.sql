-- A candidate's submit in ONE statement, no interactive transaction (lib/server/attempts/submit-attempt.ts):
-- lock the attempt, apply the final delta with the autosave rule (upsert-answers.sql), then freeze it and write
-- everything a submission writes (freeze.sql, the same freeze every other path runs). The caller computed the frozen
-- paper's digest, receipt and response from read-paper-for-submit.sql plus the delta; this statement writes
-- them only if that paper is still the attempt's: the row is still at `:rowVersion` (its xmin, checked under the
-- lock: READ COMMITTED re-checks the WHERE against the newest row version), still in progress and not past
-- deadline + grace by the database's clock. Otherwise NOTHING is written (every write hangs off `att`) and the
-- caller takes the locked path (with-locked-attempt.ts), as it does when the row is locked (NOWAIT). The unique
-- submission per attempt stays the backstop. Same effects as applyAnswerDelta + freeze-attempt.sql: one revision
-- bump if anything applied.
--
-- :attemptId       uuid
-- :rowVersion      text (the xmin read-paper-for-submit.sql returned)
-- :questionIds     uuid[]   } the final delta, one element per answer, in the same order
-- :values          text[]   } each value as JSON text
-- :versions        int[]    }
-- :deviceId        text
-- and freeze.sql's parameters (:submissionId … :digestMatches), bound by submissionWrites.
--
-- One row: created (0/1), version (the submission's, or null).
WITH att AS (
  SELECT a.id, a.exam_id, a.enrollment_id
  FROM attempts a JOIN exams e ON e.id = a.exam_id
  WHERE a.id = :attemptId::uuid AND a.xmin = :rowVersion::xid AND a.status = 'in_progress'
    AND (a.paused_at IS NOT NULL OR clock_timestamp() <= a.deadline + make_interval(secs => e.grace_seconds))
  -- NOWAIT: a row someone else holds fails this statement at once (55P03, nothing written); the caller then waits
  -- for it on the locked path, with its lock_timeout. The one statement never queues behind a lock.
  FOR UPDATE OF a NOWAIT
),
-- @include upsert-answers.sql (the autosave rule on the answer rows: `input`, `upserted`)
to_freeze AS (
  SELECT att.id, EXISTS (SELECT 1 FROM upserted) AS bump FROM att
),
-- @include freeze.sql (the transition and every side effect of a submission, as every other freeze writes them)
written AS (SELECT count(*)::int AS created, max(version) AS version FROM submission)
SELECT created, version FROM written
