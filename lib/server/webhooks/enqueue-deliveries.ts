import "server-only";

import type { Prisma } from "../db/client";
import { queryRows, sql } from "../db/sql";

type Tx = Prisma.TransactionClient;

/*
 * The outbox writes (ADR 018): each runs in the transaction of the event it announces, one INSERT … SELECT over
 * the exam's enabled endpoints subscribed to the event, so a delivery exists exactly when its event committed.
 * The payload (the `data` of the Standard Webhooks body) is frozen here; the id is the webhook-id.
 * `submission.created` is written by the freeze itself (lib/server/db/statements/outbox-submission-created.sql,
 * included by freeze.sql), in the statement that creates the submission.
 */

/**
 * `result.released` or `result.updated` for the current result of each paper: every paper of the exam
 * (`attemptIds` omitted, at release), or the given ones (a new version). `result.updated` is written only while
 * the exam's results are released.
 */
export async function enqueueResultEvents(
  tx: Tx,
  options: { examId: string; eventType: "result.released" | "result.updated"; attemptIds?: readonly string[] },
): Promise<number> {
  const scope = options.attemptIds ? [...options.attemptIds] : null;
  const statement = sql`INSERT INTO webhook_deliveries (id, endpoint_id, exam_id, event_type, attempt_id, submission_id,
                                        result_version, payload, occurred_at)
      SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), w.id, r.exam_id, ${options.eventType}, r.attempt_id, r.submission_id, r.version,
             jsonb_build_object('examId', r.exam_id, 'attemptId', r.attempt_id, 'enrollmentId', e.id, 'candidate', jsonb_build_object('name', e.name, 'email', e.email, 'externalId', e.external_id),
                                'submissionId', r.submission_id, 'submittedAt', to_char(s.submitted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                                'resultVersion', r.version, 'score', (r.score_units::numeric / 10000)::float8,
                                'maxScore', (r.max_units::numeric / 10000)::float8, 'graded', r.pending = 0),
             clock_timestamp()
      FROM results r
      JOIN exams x ON x.id = r.exam_id
      JOIN attempts a ON a.id = r.attempt_id AND a.status = 'submitted'
      JOIN submissions s ON s.id = r.submission_id
      JOIN enrollments e ON e.id = a.enrollment_id
      JOIN webhook_endpoints w ON w.exam_id = r.exam_id AND w.enabled AND w.deleted_at IS NULL
                              AND ${options.eventType} = ANY(w.events)
      WHERE r.exam_id = ${options.examId}::uuid AND r.version > 0
        AND (${scope}::uuid[] IS NULL OR r.attempt_id = ANY(${scope}::uuid[]))
        AND (${options.eventType} = 'result.released' OR x.results_released_at IS NOT NULL)
      RETURNING id`;
  const rows = await queryRows<{ id: string }>(statement, tx);
  return rows.length;
}
