import { z } from "@/lib/shared/zod";

import { DryRunQuerySchema } from "./enrollments";
import { QUESTION_TYPES } from "./constants";
import { AdminExamSchema, type AdminExam, type QuestionType } from "./exams";

/**
 * Why a whole QTI package is refused (422 QTI_PACKAGE_INVALID, `details.reason`; `details.file` names the file
 * when one is to blame). Nothing is written.
 */
export const QTI_PACKAGE_REFUSALS = [
  "not_zip",
  "too_many_entries",
  "too_large",
  "unsafe_path",
  "manifest_missing",
  "xml_invalid",
  "doctype",
  "not_utf8",
  "no_items",
  "too_many_items",
] as const;
export type QtiPackageRefusal = (typeof QTI_PACKAGE_REFUSALS)[number];

/** Why one item of a readable package cannot become a question (the preview's `problem.code`). */
export const QTI_ITEM_PROBLEMS = [
  /** The resource or its root element is not QTI 3.0 (a QTI 2.x item, say). */
  "not_qti3",
  /** The manifest names a file the package does not have. */
  "file_missing",
  /** No interaction a candidate could answer. */
  "no_interaction",
  /** More than one interaction: Holdfast's questions have one answer each. */
  "several_interactions",
  /** An interaction Holdfast has no question type for (`detail`: its element, e.g. qti-hotspot-interaction). */
  "interaction_unsupported",
  /** The interaction is one of ours but used in a way we cannot score (`detail` says how). */
  "scoring_unsupported",
  /** The question it reads as breaks a rule of questions (`detail`: the field), e.g. an empty prompt. */
  "invalid",
] as const;
export type QtiItemProblem = (typeof QTI_ITEM_PROBLEMS)[number];

/** One item of a package as the import preview shows it. */
export type QtiPreviewItem = {
  identifier: string;
  href: string;
  type: QuestionType | null;
  /** The prompt as plain text, cut at 160 characters. */
  promptExcerpt: string;
  status: "ok" | "unsupported";
  problem?: { code: QtiItemProblem; detail?: string };
};

/** `POST /api/admin/exams/{examId}/qti` answer (docs/authoring.md, "QTI 3.0"). */
export type QtiImportResult = {
  dryRun: boolean;
  written: boolean;
  summary: { items: number; ok: number; unsupported: number; imported: number };
  items: QtiPreviewItem[];
  /** After a written import: the exam with its new questions and revision. */
  exam?: AdminExam;
};

const flag = DryRunQuerySchema.optional().transform((value) => value ?? false);

/** The query of `POST /api/admin/exams/{examId}/qti`. */
export const QtiImportQuerySchema = z.object({
  dryRun: flag,
  skipUnsupported: flag,
  /** The revision the import is based on; a moved exam is 409 EDIT_CONFLICT. Without it, the current one. */
  revision: z.coerce.number().int().min(1).optional(),
});
export type QtiImportQuery = z.infer<typeof QtiImportQuerySchema>;

/** Media types a QTI package upload may be sent as. */
export const QTI_MEDIA_TYPES = ["application/zip", "application/x-zip-compressed"] as const;

/** `POST /api/admin/exams/{examId}/qti`: the preview, and after a written import the exam. */
export const QtiImportResultSchema = z.object({
  dryRun: z.boolean(),
  written: z.boolean().describe("true only when this request appended the questions"),
  summary: z.object({
    items: z.number().int(),
    ok: z.number().int(),
    unsupported: z.number().int(),
    imported: z.number().int(),
  }),
  items: z.array(
    z.object({
      identifier: z.string(),
      href: z.string().describe("the item's file in the package"),
      type: z.enum(QUESTION_TYPES).nullable(),
      promptExcerpt: z.string().describe("the prompt as plain text, at most 160 characters"),
      status: z.enum(["ok", "unsupported"]),
      problem: z
        .object({ code: z.enum(QTI_ITEM_PROBLEMS), detail: z.string().optional() })
        .optional()
        .describe("why the item cannot be imported"),
    }),
  ),
  exam: AdminExamSchema.optional().describe("after a written import: the exam with its new questions"),
}) satisfies z.ZodType<QtiImportResult>;
