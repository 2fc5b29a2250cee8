-- The autosave rule on the answer rows (docs/sync-protocol.md, "Autosave"): two CTEs, `input` and `upserted`,
-- written once for every statement that applies a delta (apply-answer-delta.sql, submit-attempt.sql), which
-- include it with `-- @include upsert-answers.sql` after a CTE `att` holding the locked, open attempt (`id`):
-- no row in `att`, nothing is written. `upserted` returns the question ids whose row changed.
--
-- :questionIds   uuid[]   } one element per answer, in the same order
-- :values        text[]   } each value as JSON text, cast to jsonb here
-- :versions      int[]    }
-- :deviceId      text
input AS (
  SELECT * FROM unnest(:questionIds::uuid[], :values::text[], :versions::int[]) AS t(question_id, value, version)
),
upserted AS (
  INSERT INTO answers (id, attempt_id, question_id, value, version, device_id, saved_at, first_saved_at)
  SELECT gen_random_uuid(), att.id, input.question_id, input.value::jsonb, input.version, :deviceId, clock_timestamp(),
         clock_timestamp()
  FROM input CROSS JOIN att
  -- Answer rows are locked in question id order, whatever order the delta lists them in (lock order,
  -- docs/sync-protocol.md): the attempt's row lock already serialises writers; this keeps it so if not.
  -- first_saved_at is set once, by the insert: an update keeps it (statistics, time from first to last edit).
  ORDER BY input.question_id
  ON CONFLICT (attempt_id, question_id) DO UPDATE
    SET value = EXCLUDED.value, version = EXCLUDED.version, device_id = EXCLUDED.device_id, saved_at = EXCLUDED.saved_at
    WHERE (answers.version, answers.device_id COLLATE "C") < (EXCLUDED.version, EXCLUDED.device_id COLLATE "C")
  RETURNING question_id
),
