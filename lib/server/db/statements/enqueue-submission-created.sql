-- `submission.created` for one new submission, in the caller's transaction (lib/server/webhooks/enqueue-deliveries.ts,
-- called by freeze-attempt.ts), so a delivery exists exactly when its submission committed (ADR 018).
--
-- :submissionId  uuid
--
-- One row: deliveries (how many were written).
WITH submission AS (
  SELECT id, attempt_id, submitted_at, version FROM submissions WHERE id = :submissionId::uuid
),
-- @include outbox-submission-created.sql
written AS (SELECT count(*)::int AS deliveries FROM outbox)
SELECT deliveries FROM written
