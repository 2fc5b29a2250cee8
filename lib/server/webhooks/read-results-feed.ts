import "server-only";

import { AppError } from "@/lib/shared/errors";

import { db } from "../db/client";
import { queryRows, sql } from "../db/sql";

type FeedRow = {
  xid: string;
  seq: string;
  attempt_id: string;
  enrollment_id: string;
  name: string;
  email: string;
  external_id: string | null;
  submission_id: string;
  version: number;
  score: string;
  max_score: string;
  pending: number;
  cause: string;
  created_at: Date;
};

/**
 * Every result version of an exam in a stable order, after `after` (issue 16, "Pull to reconcile"). The order is
 * (writing transaction id, sequence), and only versions written by transactions that ended before every running
 * one began are listed (below `pg_snapshot_xmin`): a version committed late cannot appear behind a cursor a
 * receiver has already passed. The cursor is `<xid>_<seq>` of the last item; `next` is null when nothing follows.
 */
export async function readResultsFeed(options: {
  examId: string;
  after?: string;
  limit: number;
}): Promise<{ items: unknown[]; next: string | null }> {
  const exam = await db.exam.findUnique({ where: { id: options.examId }, select: { id: true } });
  if (!exam) throw new AppError("NOT_FOUND", "Not found.");
  const [afterXid, afterSeq] = options.after ? options.after.split("_") : ["0", "0"];
  const rows = await queryRows<FeedRow>(
    sql`SELECT v.feed_xid::text AS xid, v.feed_seq::text AS seq, v.attempt_id::text AS attempt_id,
               e.id::text AS enrollment_id, e.name, e.email, e.external_id, v.submission_id::text AS submission_id, v.version,
               (v.score_units::numeric / 10000)::text AS score, (v.max_units::numeric / 10000)::text AS max_score,
               v.pending, v.cause, v.created_at
        FROM result_versions v
        JOIN attempts a ON a.id = v.attempt_id
        JOIN enrollments e ON e.id = a.enrollment_id
        WHERE v.exam_id = ${options.examId}::uuid
          AND v.feed_xid < pg_snapshot_xmin(pg_current_snapshot())
          AND (v.feed_xid, v.feed_seq) > (${afterXid}::text::xid8, ${afterSeq}::bigint)
        ORDER BY v.feed_xid, v.feed_seq
        LIMIT ${options.limit + 1}`,
  );
  const page = rows.slice(0, options.limit);
  const items = page.map((row) => ({
    cursor: `${row.xid}_${row.seq}`,
    attemptId: row.attempt_id,
    enrollmentId: row.enrollment_id,
    candidate: { name: row.name, email: row.email, externalId: row.external_id },
    submissionId: row.submission_id,
    resultVersion: row.version,
    score: Number(row.score),
    maxScore: Number(row.max_score),
    graded: row.pending === 0,
    cause: row.cause,
    createdAt: row.created_at.toISOString(),
  }));
  const last = items.at(-1);
  return { items, next: rows.length > options.limit && last ? last.cursor : null };
}
