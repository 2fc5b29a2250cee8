import "server-only";

import { randomUUID } from "node:crypto";

import { computeDeadline } from "@/lib/shared/deadline";
import { examAvailability } from "@/lib/shared/exam-availability";
import { AppError } from "@/lib/shared/errors";
import type { AuditAction } from "@/lib/shared/audit-actions";
import type { AttemptView } from "@/lib/shared/schemas/attempts";

import type { CandidatePrincipal } from "../auth/sessions";
import { db } from "../db/client";
import { prepared, queryRows, sql } from "../db/sql";
import { uuidv7 } from "../db/uuid7";
import { publishExamChange } from "../live/exam-bus";
import { findAttemptView } from "./attempt-view";

/**
 * Starts the candidate's single attempt, or resumes it. Idempotent under any concurrency: the row is
 * created with INSERT ... ON CONFLICT (enrollment_id) DO NOTHING, so two tabs or fifty parallel calls
 * all end on the one attempt the unique constraint allows. (Prisma's upsert would read-then-write and
 * can race into a unique violation; see prisma/prisma#3242.)
 *
 * The insert takes its locks in the lock order (docs/sync-protocol.md, "Lock order"): the exam FOR SHARE,
 * then the enrollment FOR SHARE, then the new row. Taking the exam's lock only at the end (the foreign
 * key's check), with the enrollment already held, deadlocked with deleting the exam; taken first, it also
 * makes an exam edit or delete that locks the exam FOR UPDATE wait for this attempt and count it. FOR SHARE
 * rather than FOR KEY SHARE: a whole-exam pause or resume (lib/server/pauses/change-pause.ts) holds the exam
 * FOR NO KEY UPDATE, so a start waits for it and reads the exam's pause as committed. During a whole-exam
 * pause the attempt starts paused (paused_at = its start time, the exam's reason: ADR 016); resuming then
 * gives it its whole time.
 */
export async function startAttempt(options: {
  examId: string;
  candidate: CandidatePrincipal;
}): Promise<{ attempt: AttemptView; isNew: boolean }> {
  const { examId, candidate } = options;
  // The session is bound to one enrollment of one exam; any other exam id does not exist for it.
  if (candidate.examId !== examId) throw new AppError("NOT_FOUND", "No such exam.");

  // One statement, so the enrollment and its exam are read together (an exam deleted meanwhile is simply gone).
  const rows = await queryRows<{
    extra_seconds: number;
    attempt_id: string | null;
    status: string;
    duration_seconds: number;
    opens_at: Date | null;
    closes_at: Date | null;
  }>(
    prepared(
      "start-attempt-facts",
      sql`SELECT en.extra_seconds, a.id::text AS attempt_id, x.status::text AS status, x.duration_seconds, x.opens_at,
                 x.closes_at
          FROM enrollments en JOIN exams x ON x.id = en.exam_id LEFT JOIN attempts a ON a.enrollment_id = en.id
          WHERE en.id = ${candidate.enrollmentId}::uuid`,
    ),
  );
  const row = rows[0];
  if (!row) throw new AppError("NOT_FOUND", "No such exam.");

  // Resuming is always allowed, even after the exam closed: the candidate can still see their paper.
  if (row.attempt_id !== null) {
    return { attempt: await requireView(row.attempt_id, candidate.enrollmentId), isNew: false };
  }

  const exam = {
    status: row.status,
    durationSeconds: row.duration_seconds,
    opensAt: row.opens_at,
    closesAt: row.closes_at,
  };
  const now = new Date();
  const availability = examAvailability(exam, now);
  if (availability === "closed") throw new AppError("EXAM_CLOSED", "This exam has closed.");
  if (availability === "not_open") {
    const opensLater = exam.status === "published" && exam.opensAt !== null;
    throw new AppError(
      "EXAM_NOT_OPEN",
      opensLater ? `This exam opens at ${exam.opensAt!.toISOString()}.` : "This exam is not open yet.",
      {
        details: opensLater ? { opensAt: exam.opensAt!.toISOString() } : undefined,
      },
    );
  }

  // The deadline counts the enrollment's extra seconds as they are when the row is written: the INSERT reads
  // them again under a share lock and writes nothing if a proctor's extension changed them since we read
  // them (extend-candidate holds that row FOR NO KEY UPDATE); then the deadline is computed again.
  let extraSeconds = row.extra_seconds;
  let deadline: Date;
  let created: { id: string } | undefined;
  for (let tries = 0; ; tries += 1) {
    deadline = computeDeadline({
      startedAt: now,
      durationSeconds: exam.durationSeconds,
      extraSeconds,
      closesAt: exam.closesAt,
    });
    // The exam's CTE is materialised (it locks rows) and the insert reads from it, so its lock comes first. The
    // audit entry is written by the same statement, so it exists exactly when the attempt does (one round trip
    // fewer in the start storm, issue 17).
    const attemptId = randomUUID();
    const audit = { sessionId: candidate.sessionId, deadline: deadline.toISOString() };
    const inserted = await queryRows<{ id: string }>(
      prepared(
        "start-attempt-insert",
        sql`WITH exam AS MATERIALIZED (
              SELECT id, paused_at, pause_reason FROM exams WHERE id = ${examId}::uuid FOR SHARE
            ),
            inserted AS (
              INSERT INTO attempts (id, enrollment_id, exam_id, status, started_at, deadline, revision, paused_at,
                                    pause_reason)
              SELECT ${attemptId}::uuid, e.id, exam.id, 'in_progress', ${now}::timestamptz, ${deadline}::timestamptz, 0,
                     CASE WHEN exam.paused_at IS NULL THEN NULL ELSE ${now}::timestamptz END, exam.pause_reason
              FROM exam JOIN enrollments e ON e.exam_id = exam.id
              WHERE e.id = ${candidate.enrollmentId}::uuid AND e.extra_seconds = ${extraSeconds}::int
              FOR SHARE OF e
              ON CONFLICT (enrollment_id) DO NOTHING
              RETURNING id, enrollment_id, exam_id
            ),
            audit AS (
              INSERT INTO audit_events (id, actor_type, actor_id, action, exam_id, enrollment_id, attempt_id, data)
              SELECT ${uuidv7()}::uuid, 'candidate', i.enrollment_id, ${"attempt.started" satisfies AuditAction},
                     i.exam_id, i.enrollment_id, i.id, ${JSON.stringify(audit)}::jsonb
              FROM inserted i
            )
            SELECT id::text AS id FROM inserted`,
      ),
    );
    created = inserted[0];
    if (created || tries >= 5) break;
    const current = await db.enrollment.findUnique({
      where: { id: candidate.enrollmentId },
      select: { extraSeconds: true, attempt: { select: { id: true } } },
    });
    if (!current || current.attempt || current.extraSeconds === extraSeconds) break;
    extraSeconds = current.extraSeconds;
  }

  if (created) {
    publishExamChange(examId, candidate.enrollmentId, "started");
    return { attempt: await requireView(created.id, candidate.enrollmentId), isNew: true };
  }

  // Another request won the race; return the attempt it created.
  const existing = await db.attempt.findUnique({
    where: { enrollmentId: candidate.enrollmentId },
    select: { id: true },
  });
  // No attempt and nothing inserted: the exam (and the enrollment with it) was deleted meanwhile.
  if (!existing) throw new AppError("NOT_FOUND", "No such exam.");
  return { attempt: await requireView(existing.id, candidate.enrollmentId), isNew: false };
}

async function requireView(attemptId: string, enrollmentId: string): Promise<AttemptView> {
  const view = await findAttemptView({ attemptId, enrollmentId });
  if (!view) throw new Error(`attempt ${attemptId} not readable by its own enrollment`);
  return view;
}
