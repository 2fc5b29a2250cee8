import "server-only";

import { AppError } from "@/lib/shared/errors";

import { recordAuditEvent } from "../audit/record-audit-event";
import { createSession } from "../auth/sessions";
import { db } from "../db/client";
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
  const enrollment = await db.$transaction(async (tx) => {
    // FOR SHARE: a revoke or reissue (change-join-link.ts) waits until this session exists, then ends it;
    // one that came first leaves no row with this hash. Joins of one candidate do not block each other.
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM enrollments WHERE join_token_hash = ${hash} AND join_revoked_at IS NULL FOR SHARE`;
    const id = locked[0]?.id;
    if (id === undefined) {
      throw new AppError("NOT_FOUND", "This join link is not valid. Ask your exam organiser for your personal link.");
    }
    const found = await tx.enrollment.findUniqueOrThrow({
      where: { id },
      select: {
        id: true,
        examId: true,
        attempt: { select: { status: true } },
        exam: { select: { status: true, closesAt: true } },
      },
    });
    const isClosed =
      found.exam.status === "closed" ||
      found.exam.status === "archived" ||
      (found.exam.closesAt !== null && found.exam.closesAt <= new Date());
    // A candidate who already submitted may still come back to read their receipt.
    if (isClosed && found.attempt?.status !== "submitted") {
      throw new AppError("EXAM_CLOSED", "This exam has closed; its join links no longer work.");
    }
    const session = await createSession(
      { kind: "candidate", enrollmentId: found.id, userAgent: options.userAgent },
      tx,
    );
    await recordAuditEvent(
      {
        actor: { type: "candidate", id: found.id },
        action: "candidate.joined",
        examId: found.examId,
        enrollmentId: found.id,
        data: { sessionId: session.sessionId, userAgent: options.userAgent?.slice(0, 300) ?? null },
      },
      tx,
    );
    return { ...found, session };
  });
  const { session } = enrollment;
  publishExamChange(enrollment.examId, enrollment.id, "joined");
  return { token: session.token, expiresAt: session.expiresAt, examId: enrollment.examId, enrollmentId: enrollment.id };
}
