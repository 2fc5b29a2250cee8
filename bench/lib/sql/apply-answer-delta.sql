-- A verbatim copy of the one-statement versioned upsert in lib/server/answers/apply-answer-delta.ts, for the bare baseline server.
-- ${name} marks a parameter, as in the tagged template. bench/lib/sql-copies.ts checks at the start of
-- every run that this text still matches the source (whitespace and these comment lines aside), and the
-- run reports loudly when it does not: update this copy together with the source.
WITH target AS (
  SELECT a.id, a.deadline
  FROM attempts a
  WHERE a.id = ${attemptId}::uuid AND (${enrollmentId}::uuid IS NULL OR a.enrollment_id = ${enrollmentId}::uuid)
),
att AS (
  SELECT a.id, a.revision
  FROM attempts a JOIN exams e ON e.id = a.exam_id
  WHERE a.id = (SELECT id FROM target)
    AND a.status = 'in_progress'
    AND clock_timestamp() <= a.deadline + make_interval(secs => e.grace_seconds)
  FOR UPDATE OF a
),
input AS (
  SELECT * FROM unnest(${questionIds}::uuid[], ${values}::text[], ${versions}::int[]) AS t(question_id, value, version)
),
upserted AS (
  INSERT INTO answers (id, attempt_id, question_id, value, version, device_id, saved_at)
  SELECT gen_random_uuid(), att.id, input.question_id, input.value::jsonb, input.version, ${deviceId}, clock_timestamp()
  FROM input CROSS JOIN att
  ON CONFLICT (attempt_id, question_id) DO UPDATE
    SET value = EXCLUDED.value, version = EXCLUDED.version, device_id = EXCLUDED.device_id, saved_at = EXCLUDED.saved_at
    WHERE (answers.version, answers.device_id COLLATE "C") < (EXCLUDED.version, EXCLUDED.device_id COLLATE "C")
  RETURNING question_id
),
bumped AS (
  UPDATE attempts SET revision = attempts.revision + 1
  FROM att
  WHERE attempts.id = att.id AND EXISTS (SELECT 1 FROM upserted)
  RETURNING attempts.revision
)
SELECT
  (SELECT count(*) FROM target)::int AS found,
  (SELECT deadline FROM target) AS deadline,
  (SELECT count(*) FROM att)::int AS open,
  COALESCE((SELECT revision FROM bumped), (SELECT revision FROM att)) AS revision,
  COALESCE((SELECT array_agg(question_id::text) FROM upserted), ARRAY[]::text[]) AS applied
