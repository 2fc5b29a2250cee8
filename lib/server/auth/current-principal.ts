import "server-only";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";

import { SESSION_COOKIES } from "./cookies";
import { findCandidateSession, findStaffSession, type CandidatePrincipal, type StaffPrincipal } from "./sessions";

// Server components read the session here; route handlers get theirs from `route()` in lib/server/http.
// `cache` makes one lookup per request however many components ask.

/** The staff member signed in on this request, or null. */
export const currentStaff = cache(async (): Promise<StaffPrincipal | null> => {
  const store = await cookies();
  return findStaffSession(store.get(SESSION_COOKIES.staff)?.value);
});

/** The candidate (one enrollment, one exam) whose join link this browser used, or null. */
export const currentCandidate = cache(async (): Promise<CandidatePrincipal | null> => {
  const store = await cookies();
  return findCandidateSession(store.get(SESSION_COOKIES.candidate)?.value);
});

/** Where a staff member lands after signing in, and where a page they may not see sends them. */
export function staffHome(role: StaffPrincipal["role"]): string {
  return role === "admin" ? "/admin" : "/proctor";
}

/** The page where a staff member with a temporary password chooses their own. */
export const CHANGE_PASSWORD_PATH = "/account";

/**
 * The staff member a page needs, or a redirect: no session goes to sign-in with a way back to `path`;
 * a member whose password an admin set goes to choose their own first (with the way back); a proctor on
 * an admin page goes to their own home rather than to an error.
 */
export async function requireStaff(options: {
  path: string;
  role: "admin" | "any";
  allowsPendingPasswordChange?: boolean;
}): Promise<StaffPrincipal> {
  const staff = await currentStaff();
  if (!staff) redirect(`/signin?next=${encodeURIComponent(options.path)}`);
  if (staff.mustChangePassword && !options.allowsPendingPasswordChange) {
    redirect(`${CHANGE_PASSWORD_PATH}?next=${encodeURIComponent(options.path)}`);
  }
  if (options.role === "admin" && staff.role !== "admin") redirect(staffHome(staff.role));
  return staff;
}
