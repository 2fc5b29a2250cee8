import "server-only";

import type { CandidateAnnouncement } from "@/lib/shared/schemas/announcements";

import { prepared, queryRows, sql } from "../db/sql";

type Row = { id: string; message: string; sent_at: Date };

/**
 * The announcements one candidate may read, oldest first: those sent to every candidate of their exam and
 * those whose selection names their enrollment. Authorization is in the query (the enrollment's own exam
 * and id), so another candidate's selection never leaks.
 */
export async function findCandidateAnnouncements(options: { enrollmentId: string }): Promise<CandidateAnnouncement[]> {
  const rows = await queryRows<Row>(
    prepared(
      "candidate-announcements",
      sql`
    SELECT a.id::text AS id, a.message, a.sent_at
    FROM enrollments e
    JOIN announcements a ON a.exam_id = e.exam_id
    WHERE e.id = ${options.enrollmentId}::uuid
      AND (a.enrollment_ids IS NULL OR e.id = ANY(a.enrollment_ids))
    ORDER BY a.sent_at, a.id`,
    ),
  );
  return rows.map((row) => ({ id: row.id, message: row.message, sentAt: row.sent_at.toISOString() }));
}

type SentRow = Row & { exam_id: string; enrollment_ids: string[] | null };
type SentAnnouncement = { examId: string; enrollmentIds: string[] | null; announcement: CandidateAnnouncement };

/** How long this process keeps a read-back announcement: long enough for every stream to take it from one read. */
const SENT_MEMO_MS = 60_000;
const globalForSent = globalThis as unknown as {
  holdfastSentAnnouncements?: Map<string, Promise<SentAnnouncement | null>>;
};

async function readSentAnnouncement(announcementId: string): Promise<SentAnnouncement | null> {
  const [row] = await queryRows<SentRow>(sql`
    SELECT id::text AS id, message, sent_at, exam_id::text AS exam_id, enrollment_ids::text[] AS enrollment_ids
    FROM announcements WHERE id = ${announcementId}::uuid`);
  if (!row) return null;
  return {
    examId: row.exam_id,
    enrollmentIds: row.enrollment_ids,
    announcement: { id: row.id, message: row.message, sentAt: row.sent_at.toISOString() },
  };
}

/**
 * The announcement a bus hint names, if it is for this candidate (their exam; everyone, or a selection naming
 * their enrollment), else null. Every candidate stream of the exam on this instance hears the same hint at once:
 * the row is read once per process and shared (a few thousand streams, one query), then each stream decides
 * from the stored exam and selection whether it is theirs.
 */
export async function sentAnnouncementFor(options: {
  announcementId: string;
  examId: string;
  enrollmentId: string;
}): Promise<CandidateAnnouncement | null> {
  const memo = (globalForSent.holdfastSentAnnouncements ??= new Map());
  let pending = memo.get(options.announcementId);
  if (!pending) {
    pending = readSentAnnouncement(options.announcementId);
    memo.set(options.announcementId, pending);
    // A failed read is not kept: the next hint reads again.
    pending.catch(() => memo.delete(options.announcementId));
    setTimeout(() => memo.delete(options.announcementId), SENT_MEMO_MS).unref();
  }
  const sent = await pending;
  if (!sent || sent.examId !== options.examId) return null;
  const isForThem = sent.enrollmentIds === null || sent.enrollmentIds.includes(options.enrollmentId);
  return isForThem ? sent.announcement : null;
}
