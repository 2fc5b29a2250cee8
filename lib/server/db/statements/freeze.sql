-- THE freeze: the one transition `in_progress -> submitted` and everything a submission writes, written once for
-- every way an attempt is submitted (ADR 025): the candidate's one-statement submit (submit-attempt.sql) and every
-- freeze under the locked-attempt transaction (freeze-attempt.sql: the candidate's locked path, force-submit, the
-- auto-submit of an overdue attempt by its lock, the sweeper, a pause that finds the attempt past its deadline, the
-- emergency import of an overdue attempt). A new side effect of submitting is a CTE here, and nowhere else.
--
-- Included with `-- @include freeze.sql` after a CTE `to_freeze` (id, bump): the attempt to freeze, whose row the
-- statement or its transaction holds FOR UPDATE, and whether its revision moves (the one-statement submit applied
-- answers in the same statement: a row updated twice in one statement keeps only one of the changes, so the bump
-- rides on this UPDATE). Ends with a comma like every fragment; the statement goes on with a CTE that reads
-- `submission` (the new submission: id, attempt_id, submitted_at, version, source; no row when nothing froze).
--
-- The transition is conditional, so of everyone who tries, exactly one freezes; the unique submission per attempt
-- is the backstop. A hand-in while paused ends the pause (ADR 016): a frozen attempt has no clock. `version` is 1,
-- or after reopenings the highest superseded version + 1 (ADR 017), read here under the row lock, so every source
-- numbers alike. Nothing is frozen (the attempt was not in progress): nothing else is written either, since every
-- write hangs off `frozen`.
--
-- The caller computed the frozen paper's digest, the receipt and the response (lib/server/attempts/
-- freeze-attempt.ts, submissionWrites, binds these parameters for every path):
-- :submissionId    uuid
-- :idempotencyKey  text, or null (not a candidate's submit)
-- :requestHash     text, or null
-- :digest          text
-- :clientDigest    text, or null
-- :receipt         text
-- :source          SubmissionSource ("candidate", "proctor" or "auto")
-- :submittedAt     timestamptz
-- :response        text (the response's exact JSON, replayed byte for byte)
-- :actorLabel      text (the result job's actor label: the system's)
-- :auditId         uuid
-- :actorType       text (the audit entry's actor: "candidate", "staff", "api-token" or "system")
-- :actorId         uuid, or null (the candidate's enrollment, the staff user)
-- :answerCount     int (answers in the frozen paper)
-- :digestMatches   boolean, or null
frozen AS (
  UPDATE attempts SET status = 'submitted', paused_at = NULL, pause_reason = NULL,
    revision = attempts.revision + CASE WHEN t.bump THEN 1 ELSE 0 END
  FROM to_freeze t
  WHERE attempts.id = t.id AND attempts.status = 'in_progress'
  RETURNING attempts.id, attempts.exam_id, attempts.enrollment_id,
    (SELECT coalesce(max(h.version), 0) + 1 FROM submission_history h WHERE h.attempt_id = attempts.id)::int AS version
),
submission AS (
  INSERT INTO submissions (id, attempt_id, idempotency_key, request_hash, digest, client_digest, receipt, source,
                           submitted_at, response, version)
  SELECT :submissionId::uuid, f.id, :idempotencyKey::text, :requestHash::text, :digest::text, :clientDigest::text,
         :receipt::text, :source::text::"SubmissionSource", :submittedAt::timestamptz, :response::text, f.version
  FROM frozen f
  RETURNING id, attempt_id, submitted_at, version, source
),
-- The paper's result job: scored by the results worker, not here (a deadline storm waits for one insert only).
to_score AS (
  SELECT f.id AS attempt_id, f.exam_id, 'submitted'::text AS cause, 'system'::text AS actor_type,
         NULL::uuid AS staff_user_id, :actorLabel::text AS actor_label, ''::text AS reason
  FROM frozen f
),
-- @include upsert-result-jobs.sql
-- @include outbox-submission-created.sql
-- The audit entry `attempt.submitted` (lib/server/audit/record-audit-event.ts's row, ADR 014).
audit AS (
  INSERT INTO audit_events (id, actor_type, actor_id, action, exam_id, enrollment_id, attempt_id, data)
  SELECT :auditId::uuid, :actorType::text, :actorId::uuid, 'attempt.submitted', NULL, NULL, s.attempt_id,
         jsonb_build_object('submissionId', s.id, 'version', s.version, 'source', s.source::text,
                            'answers', :answerCount::int, 'digestMatches', :digestMatches::boolean)
  FROM submission s
),
