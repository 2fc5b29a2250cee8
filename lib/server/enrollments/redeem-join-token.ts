import "server-only";

import { AppError } from "@/lib/shared/errors";

import { newSession } from "../auth/sessions";
import { prepared, queryRows, sql } from "../db/sql";
import { uuidv7 } from "../db/uuid7";
import { publishExamChange } from "../live/exam-bus";
import { hashJoinToken } from "./join-token";

export type RedeemedJoin = { token: string; expiresAt: Date; examId: string; enrollmentId: string };

/**
 * Exchanges a personal join token for a new candidate session. The link works on any device, any number
 * of times, until staff revoke it or the exam closes; each use is a new session (a device) and is audited.
 */
export async function redeemJoinToken(options: {
  joinToken: string;
  userAgent: string | null;
  ip?: string | null;
}): Promise<RedeemedJoin> {
  const hash = hashJoinToken(options.joinToken);
  const { token, tokenHash, expiresAt, userAgent } = newSession(options.userAgent);
  const now = Date.now();
  const sessionId = uuidv7(now);
  // ONE statement, no interactive transaction (issue 17: the start storm's first request). In order:
  // 1. the enrollment FOR SHARE: a revoke or reissue (change-join-link.ts) waits until this session exists, then
  //    ends it; one that came first leaves no row with this hash. Joins of one candidate do not block each other.
  // 2. refused when the exam is closed or archived or past closesAt (the database's clock), unless the candidate
  //    already submitted (they may come back to read their receipt);
  // 3. otherwise the session (createSession's row: the database keeps only the token's hash) and the audit entry.
  const rows = await queryRows<{ id: string; exam_id: string; refused: boolean }>(
    prepared(
      "redeem-join-token",
      sql`WITH enr AS (
          SELECT n.id, n.exam_id FROM enrollments n
          WHERE n.join_token_hash = ${hash} AND n.join_revoked_at IS NULL
          FOR SHARE
        ),
        facts AS (
          SELECT enr.id, enr.exam_id,
                 (x.status IN ('closed', 'archived') OR (x.closes_at IS NOT NULL AND x.closes_at <= clock_timestamp()))
                   AND a.status IS DISTINCT FROM 'submitted' AS refused
          FROM enr JOIN exams x ON x.id = enr.exam_id LEFT JOIN attempts a ON a.enrollment_id = enr.id
        ),
        session AS (
          INSERT INTO sessions (id, token_hash, kind, staff_user_id, enrollment_id, user_agent, expires_at)
          SELECT ${sessionId}::uuid, ${tokenHash}, 'candidate'::"SessionKind", NULL, f.id, ${userAgent},
                 ${expiresAt}::timestamptz
          FROM facts f WHERE NOT f.refused
          RETURNING id, enrollment_id
        ),
        audit AS (
          INSERT INTO audit_events (id, actor_type, actor_id, action, exam_id, enrollment_id, attempt_id, data)
          SELECT ${uuidv7(now)}::uuid, 'candidate', s.enrollment_id, 'candidate.joined', f.exam_id, s.enrollment_id, NULL,
                 jsonb_build_object('sessionId', s.id::text, 'userAgent', ${options.userAgent?.slice(0, 300) ?? null}::text)
          FROM session s JOIN facts f ON f.id = s.enrollment_id
        )
        SELECT id::text AS id, exam_id::text AS exam_id, refused FROM facts`,
    ),
  );
  const found = rows[0];
  if (!found) {
    throw new AppError("NOT_FOUND", "This join link is not valid. Ask your exam organiser for your personal link.");
  }
  if (found.refused) throw new AppError("EXAM_CLOSED", "This exam has closed; its join links no longer work.");
  publishExamChange(found.exam_id, found.id, "joined");
  return { token, expiresAt, examId: found.exam_id, enrollmentId: found.id };
}
