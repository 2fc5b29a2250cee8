-- A freeze under the locked-attempt transaction (lib/server/attempts/freeze-attempt.ts): the candidate's locked
-- submit, force-submit, and the auto-submit of an overdue attempt (by its lock, the sweeper, a pause that finds it
-- past its deadline, the emergency import). The caller holds the attempt's row FOR UPDATE and read its paper under
-- that lock; the freeze and everything it writes is freeze.sql, shared with the one-statement submit. No
-- revision bump: a locked submit applied its delta in its own statement before.
--
-- :attemptId  uuid
-- and freeze.sql's parameters (:submissionId … :digestMatches), bound by submissionWrites.
--
-- One row: created (0/1: 0 when the attempt was already frozen), version (the submission's, or null).
WITH to_freeze AS (
  SELECT :attemptId::uuid AS id, false AS bump
),
-- @include freeze.sql (the transition and every side effect of a submission)
written AS (SELECT count(*)::int AS created, max(version) AS version FROM submission)
SELECT created, version FROM written
