-- A candidate's submit in ONE statement, no interactive transaction (lib/server/attempts/submit-attempt.ts):
-- lock the attempt, apply the final delta with the autosave rule, freeze it, create the submission, queue its
-- result job, write the `submission.created` outbox rows and the audit entry. The caller computed the frozen
-- paper's digest, receipt and response from read-paper-for-submit.sql plus the delta; this statement writes
-- them only if that paper is still the attempt's: the row is still at `:rowVersion` (its xmin, checked under the
-- lock: READ COMMITTED re-checks the WHERE against the newest row version), still in progress and not past
-- deadline + grace by the database's clock. Otherwise NOTHING is written (every write hangs off `att`) and the
-- caller takes the locked path (with-locked-attempt.ts), as it does when the row is locked (NOWAIT). The unique submission per attempt stays the backstop.
-- Same effects as applyAnswerDelta + freeze-attempt.ts: one revision bump if anything applied, the pause ended,
-- `version` = highest superseded version + 1 (ADR 017).
--
-- :attemptId       uuid
-- :rowVersion      text (the xmin read-paper-for-submit.sql returned)
-- :questionIds     uuid[]   } the final delta, one element per answer, in the same order
-- :values          text[]   } each value as JSON text
-- :versions        int[]    }
-- :deviceId        text
-- :submissionId    uuid
-- :idempotencyKey  text
-- :requestHash     text
-- :digest          text
-- :clientDigest    text, or null
-- :receipt         text
-- :submittedAt     timestamptz
-- :response        text (the response's exact JSON, replayed byte for byte)
-- :actorLabel      text (the result job's actor label)
-- :auditId         uuid
-- :actorId         uuid (the candidate's enrollment)
-- :answerCount     int (answers in the frozen paper)
-- :digestMatches   boolean, or null
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
frozen AS (
  -- One UPDATE of the row for both the revision bump and the freeze (a row updated twice in one statement
  -- keeps only one of the changes).
  UPDATE attempts SET status = 'submitted', paused_at = NULL, pause_reason = NULL,
    revision = attempts.revision + CASE WHEN EXISTS (SELECT 1 FROM upserted) THEN 1 ELSE 0 END
  FROM att
  WHERE attempts.id = att.id
  RETURNING attempts.id, attempts.exam_id, attempts.enrollment_id,
    (SELECT coalesce(max(h.version), 0) + 1 FROM submission_history h WHERE h.attempt_id = attempts.id)::int AS version
),
submission AS (
  INSERT INTO submissions (id, attempt_id, idempotency_key, request_hash, digest, client_digest, receipt, source,
                           submitted_at, response, version)
  SELECT :submissionId::uuid, f.id, :idempotencyKey, :requestHash, :digest, :clientDigest, :receipt,
         'candidate'::"SubmissionSource", :submittedAt::timestamptz, :response, f.version
  FROM frozen f
  RETURNING id, attempt_id, submitted_at, version
),
job AS (
  -- lib/server/results/result-jobs.ts, enqueueResultJobs: scored by the results worker, not here.
  INSERT INTO result_jobs (attempt_id, exam_id, cause, actor_type, staff_user_id, actor_label, reason, queued_at)
  SELECT f.id, f.exam_id, 'submitted', 'system', NULL, :actorLabel, '', clock_timestamp()
  FROM frozen f
  ON CONFLICT (attempt_id) DO UPDATE
    SET cause = EXCLUDED.cause, actor_type = EXCLUDED.actor_type, staff_user_id = EXCLUDED.staff_user_id,
        actor_label = EXCLUDED.actor_label, reason = EXCLUDED.reason, queued_at = EXCLUDED.queued_at
),
-- @include outbox-submission-created.sql (the `submission.created` outbox rows, ADR 018)
audit AS (
  -- lib/server/audit/record-audit-event.ts, as freeze-attempt.ts records it.
  INSERT INTO audit_events (id, actor_type, actor_id, action, exam_id, enrollment_id, attempt_id, data)
  SELECT :auditId::uuid, 'candidate', :actorId::uuid, 'attempt.submitted', NULL, NULL, s.attempt_id,
         jsonb_build_object('submissionId', s.id, 'version', s.version, 'source', 'candidate',
                            'answers', :answerCount::int, 'digestMatches', :digestMatches::boolean)
  FROM submission s
)
SELECT (SELECT count(*) FROM submission)::int AS created, (SELECT version FROM submission) AS version
