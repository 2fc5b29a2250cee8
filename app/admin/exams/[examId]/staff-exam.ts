import "server-only";

import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { cache } from "react";

import { requireStaff } from "@/lib/server/auth/current-principal";
import type { StaffPrincipal } from "@/lib/server/auth/sessions";
import { findExamTitle } from "@/lib/server/exams/find-exam-title";
import { REQUEST_PATH_HEADER } from "@/lib/shared/request-path";
import { UuidSchema } from "@/lib/shared/schemas/attempts";

/**
 * The staff check and the exam of every page under /admin/exams/[examId]: the layout and the page both ask, React's
 * `cache` makes it one session read and one exam read per request. Layouts and pages render in parallel in the App
 * Router, so the layout cannot guard its pages on its own: each page names the role it needs, and the session and
 * the exam behind both checks are the same cached reads.
 */
const findExam = cache(async (examId: string) =>
  UuidSchema.safeParse(examId).success ? findExamTitle({ examId }) : null,
);

/**
 * Where a sign-in should lead back to: the page asked for (the proxy writes its path into a request header), or the
 * exam's page when that header is missing or names another exam.
 */
async function pathBack(examId: string): Promise<string> {
  const base = `/admin/exams/${encodeURIComponent(examId)}`;
  const asked = (await headers()).get(REQUEST_PATH_HEADER);
  return asked && (asked === base || asked.startsWith(`${base}/`) || asked.startsWith(`${base}?`)) ? asked : base;
}

export type StaffExam = { staff: StaffPrincipal; exam: { id: string; title: string } };

/**
 * The signed-in staff member and the exam, or the redirect or 404 a page answers instead: `admin` pages are for
 * admins; `grader` pages for admins and the graders assigned to this exam.
 */
export async function requireStaffExam(examId: string, role: "admin" | "grader"): Promise<StaffExam> {
  const path = await pathBack(examId);
  const staff =
    role === "admin"
      ? await requireStaff({ path, role: "admin" })
      : await requireStaff({ path, role: "grader", examId });
  const exam = await findExam(examId);
  if (!exam) notFound();
  return { staff, exam };
}
