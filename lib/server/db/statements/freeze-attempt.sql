-- The one transition `in_progress -> submitted` (lib/server/attempts/freeze-attempt.ts): conditional, so of
-- everyone who tries, exactly one freezes; the unique submission per attempt is the backstop. No row back:
-- the attempt was already frozen. A hand-in while paused ends the pause (ADR 016): a frozen attempt has no clock.
--
-- :attemptId  uuid
UPDATE attempts SET status = 'submitted', paused_at = NULL, pause_reason = NULL WHERE id = :attemptId::uuid AND status = 'in_progress' RETURNING deadline
