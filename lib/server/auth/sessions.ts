import "server-only";

import { AppError } from "@/lib/shared/errors";

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
  /**
   * Set only for a route whose operation checks the session in its own statement (route.ts, `foldsSessionCheck`):
   * this process knew the session, so whose it is was not read again — whether it is still valid (not expired,
   * not signed out, the join link not revoked) is for the operation's statement to say, which then sets
   * `isConfirmed`. Until then nothing may be written or answered for this principal but through that statement.
   */
  sessionCheck?: { tokenHash: string; isConfirmed: boolean };
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
 * Candidate sessions this process has read, by token hash: whose session it is (enrollment, exam) never changes,
 * so a route that checks the session's validity in its own statement (autosave, heartbeat; ADR 021) need not
 * read it first.
 * Bounded: past the bound, the oldest entry goes. Never the proof that a session is valid.
 */
const KNOWN_SESSIONS_MAX = 50_000;
const globalForSessions = globalThis as unknown as { holdfastKnownSessions?: Map<string, CandidatePrincipal> };
function knownSessions(): Map<string, CandidatePrincipal> {
  return (globalForSessions.holdfastKnownSessions ??= new Map());
}

function rememberCandidateSession(tokenHash: string, principal: CandidatePrincipal): void {
  const known = knownSessions();
  known.delete(tokenHash);
  known.set(tokenHash, principal);
  if (known.size > KNOWN_SESSIONS_MAX) known.delete(known.keys().next().value!);
}

/** A session found not valid any more (signed out, expired, link revoked): the next request reads it again. */
export function forgetCandidateSession(tokenHash: string): void {
  knownSessions().delete(tokenHash);
}

/**
 * The candidate a session token belongs to as this process last read it, with `sessionCheck` unconfirmed — or,
 * when this process has not read it yet, findCandidateSession's answer (valid now, confirmed). For routes whose
 * operation checks the session in its own statement only (route.ts, `foldsSessionCheck`).
 */
export async function recallCandidateSession(token: string | undefined): Promise<CandidatePrincipal | null> {
  if (!token) return null;
  const tokenHash = sha256Hex(token);
  const known = knownSessions().get(tokenHash);
  if (known) return { ...known, sessionCheck: { tokenHash, isConfirmed: false } };
  const principal = await findCandidateSession(token);
  return principal && { ...principal, sessionCheck: { tokenHash, isConfirmed: true } };
}

/** The one 401 every candidate request without a valid session gets. */
export function candidateUnauthenticated(): AppError {
  return new AppError("UNAUTHENTICATED", "Open your personal join link to start a session.");
}

/** The token hash an operation's statement must check (ADR 021), or null when the session was already read. */
export function sessionHashToCheck(candidate: Pick<CandidatePrincipal, "sessionCheck">): string | null {
  const check = candidate.sessionCheck;
  return check && !check.isConfirmed ? check.tokenHash : null;
}

/**
 * What an operation's statement said of the session it checked (ADR 021): valid confirms it; not valid makes the
 * process forget it and throws the 401.
 */
export function settleSessionCheck(candidate: Pick<CandidatePrincipal, "sessionCheck">, isValid: boolean): void {
  const check = candidate.sessionCheck;
  if (!isValid) {
    if (check) forgetCandidateSession(check.tokenHash);
    throw candidateUnauthenticated();
  }
  if (check) check.isConfirmed = true;
}

/**
 * A candidate session stays valid until it expires or staff revoke the enrollment's join link. Every
 * candidate request starts here, so it is one raw statement on the pool rather than a Prisma relation read.
 * The autosave's, the heartbeat's and the submit's first statements check the same conditions themselves
 * (lib/server/db/statements/live-candidate-session.sql, ADR 021): change both together.
 */
export async function findCandidateSession(token: string | undefined): Promise<CandidatePrincipal | null> {
  if (!token) return null;
  const tokenHash = sha256Hex(token);
  const rows = await queryRows<{ session_id: string; enrollment_id: string; exam_id: string; name: string }>(
    prepared(
      "find-candidate-session",
      sql`
    SELECT s.id::text AS session_id, en.id::text AS enrollment_id, en.exam_id::text AS exam_id, en.name
    FROM sessions s JOIN enrollments en ON en.id = s.enrollment_id
    WHERE s.token_hash = ${tokenHash} AND s.kind = 'candidate' AND s.expires_at > now()
      AND en.join_revoked_at IS NULL`,
    ),
  );
  const row = rows[0];
  if (!row) {
    forgetCandidateSession(tokenHash);
    return null;
  }
  const principal: CandidatePrincipal = {
    kind: "candidate",
    sessionId: row.session_id,
    enrollmentId: row.enrollment_id,
    examId: row.exam_id,
    name: row.name,
  };
  rememberCandidateSession(tokenHash, principal);
  return principal;
}
