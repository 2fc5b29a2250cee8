import "server-only";

import { AppError } from "@/lib/shared/errors";

import { findAdminExam } from "../exams/find-admin-exam";
import { buildQtiPackage } from "./build-qti-package";

/** A file name for the download: the title's letters and digits (any script), the rest `-`. */
function packageFileName(title: string): string {
  const stem = title
    .normalize("NFC")
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  return `${stem || "exam"}-qti.zip`;
}

/** `GET /api/admin/exams/{examId}/qti`: the exam's questions as a QTI 3.0 content package. */
export async function exportExamQti(options: { examId: string }): Promise<{ fileName: string; zip: Uint8Array }> {
  const exam = await findAdminExam({ examId: options.examId });
  if (!exam) throw new AppError("NOT_FOUND", "Not found.");
  // An admin exam's questions are stored question data (with their ids), in exam order: written as they are.
  return {
    fileName: packageFileName(exam.title),
    zip: buildQtiPackage({ title: exam.title, questions: exam.questions }),
  };
}
