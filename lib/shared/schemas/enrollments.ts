import { z } from "@/lib/shared/zod";

import { LIMITS } from "../limits";
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from "../text";

/** The longest student number (`externalId`) kept: an office's id, not free text. */
export const EXTERNAL_ID_MAX_CHARS = 64;

/**
 * A candidate's id in the office's own records (a student number), as written, trimmed: 1–64 characters, no line
 * break or other control character. Unique within an exam.
 */
export const ExternalIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(EXTERNAL_ID_MAX_CHARS)
  .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), "must not contain a line break or control character")
  .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE);

export const CandidateInputSchema = z.object({
  name: z.string().trim().min(1).max(200).refine(isStorableText, UNSTORABLE_TEXT_MESSAGE),
  email: z
    .email()
    .max(320)
    .transform((email) => email.toLowerCase()),
  /** Optional; enrolling an email again without it keeps the one it has. */
  externalId: ExternalIdSchema.optional(),
  extraSeconds: z.number().int().min(0).max(LIMITS.maxExtraSeconds).default(0),
});

/** `POST /api/admin/exams/{examId}/candidates` request body. */
export const EnrollCandidatesSchema = z.object({
  candidates: z.array(CandidateInputSchema).min(1).max(LIMITS.maxCandidatesPerRequest),
});
export type EnrollCandidatesInput = z.infer<typeof EnrollCandidatesSchema>;

/** Whether `POST /api/admin/exams/{examId}/candidates?dryRun=1` only previews (docs/admin-api.md). */
export const DryRunQuerySchema = z
  .enum(["0", "1", "true", "false"])
  .transform((value) => value === "1" || value === "true");

/** Why one line of a candidates CSV cannot be imported (docs/admin-api.md, "Line errors"). */
export const CSV_LINE_ERROR_CODES = [
  "fields",
  "quotes",
  "name_missing",
  "name_too_long",
  "name_unstorable",
  "email_invalid",
  "extra_minutes_invalid",
  "extra_minutes_too_large",
  "duplicate_in_file",
  "conflict",
] as const;
export type CsvLineErrorCode = (typeof CSV_LINE_ERROR_CODES)[number];

/** Why a candidates CSV as a whole cannot be read. */
export const CSV_FILE_ERROR_CODES = ["empty", "header_missing", "header_invalid", "too_many_lines"] as const;
export type CsvFileErrorCode = (typeof CSV_FILE_ERROR_CODES)[number];

export type CsvColumn = "name" | "email" | "extra_minutes";

/**
 * One problem: a stable `code` (the interface words it in the reader's language), the English `message`
 * for scripts, and the values the sentence needs (`params`: a line number, a limit, the stored value).
 */
export type CsvLineError = {
  code: CsvLineErrorCode;
  column?: CsvColumn;
  message: string;
  params?: Record<string, string | number>;
};
export type CsvFileError = { code: CsvFileErrorCode; message: string; params?: Record<string, string | number> };

/**
 * One data line of the file, by its physical line number (the header is usually line 1; blank lines
 * count, and are skipped). `new`: will be enrolled; `unchanged`: already enrolled exactly so (importing
 * again changes nothing); `error`: see `errors`.
 */
export type CsvPreviewLine = {
  line: number;
  status: "new" | "unchanged" | "error";
  name: string;
  email: string;
  /** Null when the line's extra time is not a valid number of minutes. */
  extraSeconds: number | null;
  /** The existing enrollment (`unchanged`, `conflict`), or the new one once written. */
  enrollmentId?: string;
  errors: CsvLineError[];
};

/** The body of a CSV import or preview (and `error.details` of a refused one). */
export type CsvImportResult = {
  dryRun: boolean;
  /** True only when this request enrolled the file's new lines. */
  written: boolean;
  delimiter: "," | ";";
  summary: { lines: number; new: number; unchanged: number; errors: number };
  fileErrors: CsvFileError[];
  lines: CsvPreviewLine[];
};

/** `GET /api/admin/exams/{examId}/candidates`, one entry (docs/admin-api.md). */
export type EnrolledCandidateListItem = {
  id: string;
  name: string;
  email: string;
  /** The office's student number, or null. */
  externalId: string | null;
  extraSeconds: number;
  joinLink:
    | { status: "active"; url: string; generation: number }
    | { status: "revoked"; revokedAt: string; generation: number };
  attempt: {
    id: string;
    status: "in_progress" | "submitted";
    startedAt: string;
    deadline: string;
    submittedAt: string | null;
    /** The current submission's version (2 after one reopening, ADR 017); null while in progress. */
    submissionVersion: number | null;
    /** How many times an admin reopened this attempt. */
    reopenings: number;
  } | null;
  createdAt: string;
};

/** `PATCH /api/admin/exams/{examId}/candidates/{enrollmentId}`: the candidate's total extra time. */
export const UpdateCandidateSchema = z.object({
  extraSeconds: z.number().int().min(0).max(LIMITS.maxExtraSeconds),
});
export type UpdateCandidateInput = z.infer<typeof UpdateCandidateSchema>;

/** `POST /api/admin/exams/{examId}/candidates/{enrollmentId}/join-link`. */
export const JoinLinkActionSchema = z.object({ action: z.enum(["revoke", "reissue"]) });
export type JoinLinkActionInput = z.infer<typeof JoinLinkActionSchema>;
