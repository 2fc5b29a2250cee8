-- The one transition `in_progress -> submitted` (lib/server/attempts/freeze-attempt.ts): conditional, so of
-- everyone who tries, exactly one freezes; the unique submission per attempt is the backstop. No row back:
-- the attempt was already frozen. A hand-in while paused ends the pause (ADR 016): a frozen attempt has no clock.
-- `version` is the new submission's: 1, or after reopenings the highest superseded version + 1 (ADR 017), read in
-- this statement under the attempt's row lock, so every source numbers alike without another round trip.
--
-- :attemptId  uuid
UPDATE attempts SET status = 'submitted', paused_at = NULL, pause_reason = NULL WHERE id = :attemptId::uuid AND status = 'in_progress'
RETURNING deadline,
  (SELECT coalesce(max(h.version), 0) + 1 FROM submission_history h WHERE h.attempt_id = :attemptId::uuid)::int AS version
