import "server-only";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";

import { staffHome } from "@/lib/shared/staff-home";

import { SESSION_COOKIES } from "./cookies";
import { isAssignedGrader } from "./is-assigned-grader";
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

export { staffHome };

/** The page where a staff member with a temporary password chooses their own. */
export const CHANGE_PASSWORD_PATH = "/account";

/**
 * The staff member a page needs, or a redirect: no session goes to sign-in with a way back to `path`;
 * a member whose password an admin set goes to choose their own first (with the way back); someone on a page
 * that is not theirs goes to their own home rather than to an error. Roles:
 * - `admin`: admins only;
 * - `proctor`: admins and proctors (the proctor pages; graders do not proctor);
 * - `grader`: admins and graders; with `examId`, only the graders assigned to that exam (a grading page);
 * - `any`: every staff member (their account, the API docs).
 */
export async function requireStaff(
  options: {
    path: string;
    allowsPendingPasswordChange?: boolean;
  } & ({ role: "admin" | "proctor" | "any" } | { role: "grader"; examId?: string }),
): Promise<StaffPrincipal> {
  const staff = await currentStaff();
  if (!staff) redirect(`/signin?next=${encodeURIComponent(options.path)}`);
  if (staff.mustChangePassword && !options.allowsPendingPasswordChange) {
    redirect(`${CHANGE_PASSWORD_PATH}?next=${encodeURIComponent(options.path)}`);
  }
  if (options.role === "admin" && staff.role !== "admin") redirect(staffHome(staff.role));
  if (options.role === "proctor" && staff.role === "grader") redirect(staffHome(staff.role));
  if (options.role === "grader" && staff.role !== "admin") {
    const { examId } = options;
    const isAllowed =
      staff.role === "grader" &&
      (examId === undefined || (await isAssignedGrader({ examId, staffUserId: staff.userId })));
    if (!isAllowed) redirect(staffHome(staff.role));
  }
  return staff;
}
