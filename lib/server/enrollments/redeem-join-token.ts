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
  const enrollment = await db.enrollment.findUnique({
    where: { joinTokenHash: hashJoinToken(options.joinToken) },
    select: {
      id: true,
      examId: true,
      joinRevokedAt: true,
      attempt: { select: { status: true } },
      exam: { select: { status: true, closesAt: true } },
    },
  });
  if (!enrollment || enrollment.joinRevokedAt) {
    throw new AppError("NOT_FOUND", "This join link is not valid. Ask your exam organiser for your personal link.");
  }
  const isClosed =
    enrollment.exam.status === "closed" ||
    enrollment.exam.status === "archived" ||
    (enrollment.exam.closesAt !== null && enrollment.exam.closesAt <= new Date());
  // A candidate who already submitted may still come back to read their receipt.
  if (isClosed && enrollment.attempt?.status !== "submitted") {
    throw new AppError("EXAM_CLOSED", "This exam has closed; its join links no longer work.");
  }

  const session = await createSession({ kind: "candidate", enrollmentId: enrollment.id, userAgent: options.userAgent });
  await recordAuditEvent({
    actor: { type: "candidate", id: enrollment.id },
    action: "candidate.joined",
    examId: enrollment.examId,
    enrollmentId: enrollment.id,
    data: { sessionId: session.sessionId, userAgent: options.userAgent?.slice(0, 300) ?? null },
  });
  publishExamChange(enrollment.examId, enrollment.id, "joined");
  return { token: session.token, expiresAt: session.expiresAt, examId: enrollment.examId, enrollmentId: enrollment.id };
}
