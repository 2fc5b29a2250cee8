-- The `submission.created` outbox rows (ADR 018), part of the one freeze every submission runs (freeze.sql).
-- Included with `-- @include outbox-submission-created.sql` after a CTE `submission` holding the new submission
-- (id, attempt_id, submitted_at, version): one delivery per enabled endpoint of the exam subscribed to the event,
-- its payload (the `data` of the Standard Webhooks body) frozen here; the id is the webhook-id. Returns the ids.
outbox AS (
  INSERT INTO webhook_deliveries (id, endpoint_id, exam_id, event_type, attempt_id, submission_id, payload, occurred_at)
  SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), w.id, a.exam_id, 'submission.created', a.id, s.id,
         jsonb_build_object('examId', a.exam_id, 'attemptId', a.id, 'enrollmentId', e.id, 'candidate', jsonb_build_object('name', e.name, 'email', e.email, 'externalId', e.external_id),
                            'submissionId', s.id, 'submittedAt', to_char(s.submitted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'submissionVersion', s.version),
         s.submitted_at
  FROM submission s
  -- The attempt as the statement began (its exam and enrollment never change).
  JOIN attempts a ON a.id = s.attempt_id
  JOIN enrollments e ON e.id = a.enrollment_id
  JOIN webhook_endpoints w ON w.exam_id = a.exam_id AND w.enabled AND w.deleted_at IS NULL
                          AND 'submission.created' = ANY(w.events)
  RETURNING id
),
