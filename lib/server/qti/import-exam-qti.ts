import "server-only";

import { AppError } from "@/lib/shared/errors";
import { LIMITS } from "@/lib/shared/limits";
import type { QtiImportQuery, QtiImportResult } from "@/lib/shared/schemas/qti";

import type { ApiTokenPrincipal, StaffPrincipal } from "../auth/sessions";
import { findAdminExam } from "../exams/find-admin-exam";
import { questionInputOf } from "../exams/question-data";
import { updateExam } from "../exams/update-exam";
import { readQtiPackage } from "./read-qti-package";

/**
 * `POST /api/admin/exams/{examId}/qti`: reads a QTI 3.0 package and, unless it is a dry run, appends its
 * questions to the exam.
 *
 * 1. The package is read whole before anything else (read-qti-package.ts): a broken one is 422
 *    QTI_PACKAGE_INVALID.
 * 2. A dry run answers the preview. Otherwise unsupported items refuse the import whole (422
 *    QTI_ITEMS_UNSUPPORTED, the preview in `details`) unless `skipUnsupported`.
 * 3. The questions are appended through updateExam, the path every exam edit takes: the revision bump
 *    (409 EDIT_CONFLICT when `revision` moved), the structure lock once attempts exist (409
 *    QUESTIONS_LOCKED), the audit event — all in its one transaction, so a refusal writes nothing.
 */
export async function importExamQti(options: {
  examId: string;
  zip: Uint8Array;
  query: QtiImportQuery;
  caller: StaffPrincipal | ApiTokenPrincipal;
}): Promise<QtiImportResult> {
  const { examId, zip, query, caller } = options;
  const exam = await findAdminExam({ examId });
  if (!exam) throw new AppError("NOT_FOUND", "Not found.");

  // 1.
  const items = readQtiPackage(zip);
  const previews = items.map((item) => item.preview);
  const inputs = items.flatMap((item) => (item.input ? [item.input] : []));
  const summary = {
    items: items.length,
    ok: inputs.length,
    unsupported: items.length - inputs.length,
    imported: 0,
  };

  // 2.
  if (query.dryRun) return { dryRun: true, written: false, summary, items: previews };
  const preview: QtiImportResult = { dryRun: false, written: false, summary, items: previews };
  if (summary.unsupported > 0 && !query.skipUnsupported) {
    throw new AppError(
      "QTI_ITEMS_UNSUPPORTED",
      `${summary.unsupported} of ${summary.items} items cannot be imported; nothing was written. Send skipUnsupported=1 to import the others.`,
      { details: preview },
    );
  }
  if (inputs.length === 0) {
    throw new AppError("QTI_ITEMS_UNSUPPORTED", "No item of this package can be imported; nothing was written.", {
      details: preview,
    });
  }

  // 3.
  if (exam.questions.length + inputs.length > LIMITS.maxQuestionsPerExam) {
    throw new AppError(
      "VALIDATION_FAILED",
      `An exam has at most ${LIMITS.maxQuestionsPerExam} questions; this import would make ${exam.questions.length + inputs.length}.`,
      { details: { issues: [{ path: "questions", message: `at most ${LIMITS.maxQuestionsPerExam} questions` }] } },
    );
  }
  const updated = await updateExam({
    examId,
    caller,
    input: {
      revision: query.revision ?? exam.revision,
      questions: [...exam.questions.map((question) => questionInputOf(question)), ...inputs],
    },
  });
  return {
    dryRun: false,
    written: true,
    summary: { ...summary, imported: inputs.length },
    items: previews,
    exam: updated,
  };
}
