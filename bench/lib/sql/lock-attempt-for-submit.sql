-- A verbatim copy of the SELECT ... FOR UPDATE that opens the submit transaction in lib/server/attempts/submit-attempt.ts, for the bare baseline server.
-- ${name} marks a parameter, as in the tagged template. bench/lib/sql-copies.ts checks at the start of
-- every run that this text still matches the source (whitespace and these comment lines aside), and the
-- run reports loudly when it does not: update this copy together with the source.
SELECT a.status::text AS status, clock_timestamp() > a.deadline + make_interval(secs => e.grace_seconds) AS overdue
FROM attempts a JOIN exams e ON e.id = a.exam_id
WHERE a.id = ${attemptId}::uuid
FOR UPDATE OF a
