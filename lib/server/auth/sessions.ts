import "server-only";

import { db } from "../db/client";
import { prepared, queryRows, sql } from "../db/sql";
import { randomToken, sha256Hex } from "../crypto";
import { env } from "../env.mjs";

export type StaffPrincipal = {
  kind: "staff";
  sessionId: string;
  userId: string;
  role: "admin" | "proctor" | "grader";
  email: string;
  name: string;
  /** An admin set this member's password; until they choose their own, only that (and signing out) works. */
  mustChangePassword: boolean;
};

export type CandidatePrincipal = {
  kind: "candidate";
  sessionId: string;
  enrollmentId: string;
  examId: string;
  name: string;
};

/** A script holding ADMIN_API_TOKEN. It may do what an admin may do. */
export type ApiTokenPrincipal = { kind: "api-token" };

export type Principal = StaffPrincipal | CandidatePrincipal | ApiTokenPrincipal;

/** When a session made now expires. */
function sessionExpiry(): Date {
  return new Date(Date.now() + env.SESSION_TTL_HOURS * 3600 * 1000);
}

/**
 * What a new session is made of: its token (the only copy, for the cookie), the hash the database keeps, its
 * expiry, and the user agent as stored. createSession writes it with Prisma; the one-statement join
 * (redeem-join-token.ts) writes the same row in its own statement.
 */
export function newSession(userAgent: string | null | undefined): {
  token: string;
  tokenHash: string;
  expiresAt: Date;
  userAgent: string | null;
} {
  const token = randomToken();
  return {
    token,
    tokenHash: sha256Hex(token),
    expiresAt: sessionExpiry(),
    userAgent: userAgent?.slice(0, 500) ?? null,
  };
}

/** Creates a session and returns the only copy of its token (the database keeps its hash). */
export async function createSession(
  options:
    | { kind: "staff"; staffUserId: string; userAgent?: string | null }
    | { kind: "candidate"; enrollmentId: string; userAgent?: string | null },
  client: Pick<typeof db, "session"> = db,
): Promise<{ token: string; expiresAt: Date; sessionId: string }> {
  const { token, tokenHash, expiresAt, userAgent } = newSession(options.userAgent);
  const session = await client.session.create({
    data: {
      tokenHash,
      kind: options.kind,
      staffUserId: options.kind === "staff" ? options.staffUserId : null,
      enrollmentId: options.kind === "candidate" ? options.enrollmentId : null,
      userAgent,
      expiresAt,
    },
    select: { id: true },
  });
  return { token, expiresAt, sessionId: session.id };
}

export async function deleteSessionByToken(token: string): Promise<void> {
  await db.session.deleteMany({ where: { tokenHash: sha256Hex(token) } });
}

/**
 * The staff member a session token belongs to. A disabled account's sessions are deleted when it is disabled;
 * the `disabledAt` condition here also refuses one created by a sign-in racing the disable.
 */
export async function findStaffSession(token: string | undefined): Promise<StaffPrincipal | null> {
  if (!token) return null;
  const session = await db.session.findFirst({
    where: {
      tokenHash: sha256Hex(token),
      kind: "staff",
      expiresAt: { gt: new Date() },
      staffUser: { disabledAt: null },
    },
    select: {
      id: true,
      staffUser: { select: { id: true, role: true, email: true, name: true, mustChangePassword: true } },
    },
  });
  if (!session?.staffUser) return null;
  const { staffUser } = session;
  return {
    kind: "staff",
    sessionId: session.id,
    userId: staffUser.id,
    role: staffUser.role,
    email: staffUser.email,
    name: staffUser.name,
    mustChangePassword: staffUser.mustChangePassword,
  };
}

/**
 * A candidate session stays valid until it expires or staff revoke the enrollment's join link. Every
 * candidate request starts here, so it is one raw statement on the pool rather than a Prisma relation read.
 */
export async function findCandidateSession(token: string | undefined): Promise<CandidatePrincipal | null> {
  if (!token) return null;
  const rows = await queryRows<{ session_id: string; enrollment_id: string; exam_id: string; name: string }>(
    prepared(
      "find-candidate-session",
      sql`
    SELECT s.id::text AS session_id, en.id::text AS enrollment_id, en.exam_id::text AS exam_id, en.name
    FROM sessions s JOIN enrollments en ON en.id = s.enrollment_id
    WHERE s.token_hash = ${sha256Hex(token)} AND s.kind = 'candidate' AND s.expires_at > now()
      AND en.join_revoked_at IS NULL`,
    ),
  );
  const row = rows[0];
  if (!row) return null;
  return {
    kind: "candidate",
    sessionId: row.session_id,
    enrollmentId: row.enrollment_id,
    examId: row.exam_id,
    name: row.name,
  };
}
