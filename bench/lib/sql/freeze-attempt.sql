-- A verbatim copy of the conditional status transition in lib/server/attempts/freeze-attempt.ts, for the bare baseline server.
-- ${name} marks a parameter, as in the tagged template. bench/lib/sql-copies.ts checks at the start of
-- every run that this text still matches the source (whitespace and these comment lines aside), and the
-- run reports loudly when it does not: update this copy together with the source.
UPDATE attempts SET status = 'submitted' WHERE id = ${options.attemptId}::uuid AND status = 'in_progress' RETURNING deadline
