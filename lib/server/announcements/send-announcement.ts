import "server-only";

import { randomUUID } from "node:crypto";

import { AppError, validationError } from "@/lib/shared/errors";
import { SendAnnouncementSchema, type SentAnnouncement } from "@/lib/shared/schemas/announcements";

import { recordAuditEvent } from "../audit/record-audit-event";
import { actorOf } from "../auth/actor";
import { db } from "../db/client";
import { publishAnnouncement } from "../live/exam-bus";
import { actorLabel, type StaffCaller } from "../proctor/find-candidate-for-staff";
import { findWatchedExam } from "../proctor/find-watched-exam";

type StoredAnnouncement = { id: string; message: string; enrollment_ids: string[] | null; sent_at: Date };

/** How much of the message the audit entry keeps: enough to recognise it, not a second copy of it. */
const AUDIT_EXCERPT_LENGTH = 200;

/**
 * A message from staff to the exam's candidates (docs/sync-protocol.md, "Announcements").
 *
 * 1. The exam must be one the caller may watch (else 404, whatever the body); then the body (422).
 * 2. Every selected id must be a candidate of this exam: the first that is not is named in a 422, and nothing
 *    is sent (a message silently reaching fewer people than the proctor chose is worse than an error).
 * 3. One transaction: INSERT … ON CONFLICT (exam_id, request_key) DO NOTHING, so parallel requests with one
 *    Idempotency-Key make one row (the loser waits for the winner's commit, then reads its row); the audit
 *    entry is written with the row, by the request that wrote it.
 * 4. A replay with the same body answers the first 201 (`isReplay`); another body is 422
 *    IDEMPOTENCY_KEY_REUSED.
 * 5. After commit, the bus tells every instance's candidate streams (a hint: they read the row back).
 */
export async function sendAnnouncement(options: {
  examId: string;
  caller: StaffCaller;
  body: unknown;
  requestKey: string | null;
}): Promise<{ announcement: SentAnnouncement; isReplay: boolean }> {
  const { examId, caller, requestKey } = options;
  // 1.
  if (!(await findWatchedExam({ examId, principal: caller }))) throw new AppError("NOT_FOUND", "No such exam.");
  const parsed = SendAnnouncementSchema.safeParse(options.body);
  if (!parsed.success) throw validationError(parsed.error);
  const message = parsed.data.message;
  const enrollmentIds = parsed.data.enrollmentIds
    ? [...new Set(parsed.data.enrollmentIds.map((id) => id.toLowerCase()))].sort()
    : null;

  // 2.
  if (enrollmentIds) {
    const found = await db.$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM enrollments WHERE exam_id = ${examId}::uuid AND id = ANY(${enrollmentIds}::uuid[])`;
    const inExam = new Set(found.map((row) => row.id));
    const stranger = enrollmentIds.find((id) => !inExam.has(id));
    if (stranger !== undefined) {
      const index = parsed.data.enrollmentIds!.findIndex((id) => id.toLowerCase() === stranger);
      throw new AppError("VALIDATION_FAILED", `Invalid body: ${stranger} is not a candidate of this exam.`, {
        details: {
          issues: [{ path: `enrollmentIds.${index}`, message: `${stranger} is not a candidate of this exam` }],
        },
      });
    }
  }

  // 3.
  const { stored, isReplay } = await db.$transaction(async (tx) => {
    const inserted = await tx.$queryRaw<StoredAnnouncement[]>`
      INSERT INTO announcements (id, exam_id, message, enrollment_ids, staff_user_id, actor_label, request_key)
      VALUES (${randomUUID()}::uuid, ${examId}::uuid, ${message}, ${enrollmentIds}::uuid[],
              ${caller.kind === "staff" ? caller.userId : null}::uuid, ${actorLabel(caller)}, ${requestKey})
      ON CONFLICT (exam_id, request_key) DO NOTHING
      RETURNING id::text AS id, message, enrollment_ids::text[] AS enrollment_ids, sent_at`;
    const row = inserted[0];
    if (row) {
      await recordAuditEvent(
        {
          actor: actorOf(caller),
          action: "announcement.sent",
          examId,
          data: {
            announcementId: row.id,
            by: actorLabel(caller),
            excerpt: message.slice(0, AUDIT_EXCERPT_LENGTH),
            recipients: enrollmentIds ?? "all",
            count: enrollmentIds?.length ?? null,
          },
        },
        tx,
      );
      return { stored: row, isReplay: false };
    }
    const previous = await tx.$queryRaw<StoredAnnouncement[]>`
      SELECT id::text AS id, message, enrollment_ids::text[] AS enrollment_ids, sent_at
      FROM announcements WHERE exam_id = ${examId}::uuid AND request_key = ${requestKey}`;
    return { stored: previous[0]!, isReplay: true };
  });

  // 4.
  if (isReplay && !isSameRequest(stored, { message, enrollmentIds })) {
    throw new AppError(
      "IDEMPOTENCY_KEY_REUSED",
      "This Idempotency-Key was already used with a different request body.",
    );
  }
  // 5.
  if (!isReplay) publishAnnouncement(examId, stored.id);
  return {
    announcement: {
      id: stored.id,
      message: stored.message,
      sentAt: stored.sent_at.toISOString(),
      enrollmentIds: stored.enrollment_ids,
    },
    isReplay,
  };
}

function isSameRequest(
  stored: StoredAnnouncement,
  request: { message: string; enrollmentIds: string[] | null },
): boolean {
  if (stored.message !== request.message) return false;
  if (stored.enrollment_ids === null || request.enrollmentIds === null)
    return stored.enrollment_ids === request.enrollmentIds;
  const storedIds = [...stored.enrollment_ids].sort();
  return (
    storedIds.length === request.enrollmentIds.length && storedIds.every((id, i) => id === request.enrollmentIds![i])
  );
}
