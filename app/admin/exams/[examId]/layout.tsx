import type { ReactNode } from "react";

import { StaffHeader } from "@/components/staff-header";

import { requireStaffExam } from "./staff-exam";

type Props = { children: ReactNode; params: Promise<{ examId: string }> };

/**
 * Every page about one exam: the staff check (admins, and the graders assigned to it — each page narrows further)
 * and the exam, read once per request with the page's own check, and the staff header above the page.
 */
export default async function StaffExamLayout({ children, params }: Props) {
  const { examId } = await params;
  const { staff } = await requireStaffExam(examId, "grader");
  return (
    <>
      <StaffHeader staff={staff} current={staff.role === "admin" ? "admin" : "grading"} />
      {children}
    </>
  );
}
