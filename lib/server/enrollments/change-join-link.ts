import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { EnrolledCandidateListItem } from "@/lib/shared/schemas/enrollments";

import { recordAuditEvent } from "../audit/record-audit-event";
import type { AuditActor } from "../auth/actor";
import { db } from "../db/client";
import { publishExamChange } from "../live/exam-bus";
import { deriveJoinToken, hashJoinToken, joinUrl } from "./join-token";

export type JoinLinkChange = {
  enrollmentId: string;
  joinLink: EnrolledCandidateListItem["joinLink"];
  /** Candidate sessions (devices) that ended with the old link. */
  endedSessions: number;
};

/**
 * Revokes a candidate's join link, or reissues it (docs/admin-api.md, "Revoking a join link"). Either
 * way the old link stops working at once and every session opened with it ends: the token generation
 * goes up, so the link derived from it changes and its hash no longer finds the enrollment, and the
 * candidate's sessions are deleted. `reissue` leaves a new, working link; `revoke` leaves none until a
 * reissue. Revoking a revoked link changes nothing.
 *
 * The enrollment row is locked first. A join in flight holds it FOR SHARE (redeemJoinToken) from the
 * token lookup to its new session: either it commits first and its session is among those deleted here,
 * or it waits and then no longer finds the old hash. Either way no session survives on the old link.
 */
export async function changeJoinLink(options: {
  examId: string;
  enrollmentId: string;
  action: "revoke" | "reissue";
  actor: AuditActor;
}): Promise<JoinLinkChange> {
  const { examId, enrollmentId, action, actor } = options;
  const result = await db.$transaction(async (tx): Promise<JoinLinkChange & { isChanged: boolean }> => {
    const rows = await tx.$queryRaw<{ token_generation: number; join_revoked_at: Date | null }[]>`
      SELECT token_generation, join_revoked_at FROM enrollments
      WHERE id = ${enrollmentId}::uuid AND exam_id = ${examId}::uuid FOR UPDATE`;
    const row = rows[0];
    if (!row) throw new AppError("NOT_FOUND", "No such candidate.");
    if (action === "revoke" && row.join_revoked_at !== null) {
      return {
        enrollmentId,
        joinLink: { status: "revoked", revokedAt: row.join_revoked_at.toISOString(), generation: row.token_generation },
        endedSessions: 0,
        isChanged: false,
      };
    }

    const generation = row.token_generation + 1;
    const revokedAt = action === "revoke" ? new Date() : null;
    await tx.$executeRaw`
      UPDATE enrollments
      SET token_generation = ${generation}::int,
          join_token_hash = ${hashJoinToken(deriveJoinToken(enrollmentId, generation))},
          join_revoked_at = ${revokedAt}
      WHERE id = ${enrollmentId}::uuid`;
    const endedSessions = await tx.$executeRaw`
      DELETE FROM sessions WHERE enrollment_id = ${enrollmentId}::uuid AND kind = 'candidate'`;
    await recordAuditEvent(
      {
        actor,
        action: action === "revoke" ? "enrollment.join_link_revoked" : "enrollment.join_link_reissued",
        examId,
        enrollmentId,
        data: { generation, endedSessions },
      },
      tx,
    );
    return {
      enrollmentId,
      joinLink: revokedAt
        ? { status: "revoked", revokedAt: revokedAt.toISOString(), generation }
        : { status: "active", url: joinUrl(deriveJoinToken(enrollmentId, generation)), generation },
      endedSessions,
      isChanged: true,
    };
  });
  // The dashboard's row: the candidate's devices went offline with their sessions.
  if (result.isChanged) publishExamChange(examId, enrollmentId, "presence");
  return { enrollmentId: result.enrollmentId, joinLink: result.joinLink, endedSessions: result.endedSessions };
}
