import type { StaffRole } from "./schemas/staff";

/**
 * Where a staff member lands after signing in, and where a page they may not see sends them: an admin to the
 * exams, a proctor to the live dashboard, a grader to the exams they mark.
 */
export function staffHome(role: StaffRole): string {
  if (role === "admin") return "/admin";
  return role === "grader" ? "/grading" : "/proctor";
}
