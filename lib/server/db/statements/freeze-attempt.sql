-- The one transition `in_progress -> submitted` (lib/server/attempts/freeze-attempt.ts): conditional, so of
-- everyone who tries, exactly one freezes; the unique submission per attempt is the backstop. No row back:
-- the attempt was already frozen.
--
-- :attemptId  uuid
UPDATE attempts SET status = 'submitted' WHERE id = :attemptId::uuid AND status = 'in_progress' RETURNING deadline
