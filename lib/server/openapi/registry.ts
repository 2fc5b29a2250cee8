import "server-only";

import { z } from "zod";

import type { ErrorCode } from "@/lib/shared/errors";
import { AuditQuerySchema } from "@/lib/shared/schemas/audit";
import { JoinSessionSchema, StaffSignInSchema } from "@/lib/shared/schemas/auth";
import { EmergencyExportFileSchema } from "@/lib/shared/schemas/emergency-export";
import {
  DryRunQuerySchema,
  EnrollCandidatesSchema,
  JoinLinkActionSchema,
  UpdateCandidateSchema,
} from "@/lib/shared/schemas/enrollments";
import { CreateExamSchema, DuplicateExamSchema, PatchExamSchema } from "@/lib/shared/schemas/exams";
import {
  GradeParamsSchema,
  GradingQuestionParamsSchema,
  GradingQueueQuerySchema,
  SaveGradeSchema,
} from "@/lib/shared/schemas/grading";
import { HeartbeatSchema } from "@/lib/shared/schemas/heartbeat";
import { LateAnswerDecisionSchema, LateAnswerParamsSchema } from "@/lib/shared/schemas/results";
import { ReceiptFileSchema } from "@/lib/shared/schemas/receipts";
import { QTI_PACKAGE_REFUSALS, QtiImportQuerySchema } from "@/lib/shared/schemas/qti";
import { AttemptParamsSchema, ExamCandidateParamsSchema, ExamParamsSchema } from "@/lib/shared/schemas/params";
import { BulkExtendSchema, ExtendSchema } from "@/lib/shared/schemas/proctor";
import { PauseSchema, ResumeSchema } from "@/lib/shared/schemas/pauses";
import { ForceSubmitSchema } from "@/lib/shared/schemas/proctor-actions";
import { ReopenSchema } from "@/lib/shared/schemas/reopen";
import {
  ChangePasswordSchema,
  CreateStaffSchema,
  ExamStaffParamsSchema,
  ResetStaffPasswordSchema,
  StaffParamsSchema,
  UpdateStaffSchema,
} from "@/lib/shared/schemas/staff";
import { AutosaveSchema, SubmitSchema } from "@/lib/shared/schemas/sync";
import { AnnouncementReceiptsSchema, SendAnnouncementSchema } from "@/lib/shared/schemas/announcements";
import {
  CreateWebhookSchema,
  DeliveryParamsSchema,
  ListDeliveriesQuerySchema,
  ResultsFeedQuerySchema,
  RetryEndpointSchema,
  UpdateWebhookSchema,
  WebhookEndpointParamsSchema,
} from "@/lib/shared/schemas/webhooks";

import type { Access } from "../http/route";
import {
  AdminExamSchema,
  ExamResultsSchema,
  ExamStatisticsSchema,
  RegradeQueuedSchema,
  AttemptViewSchema,
  AuditPageSchema,
  AutosaveResponseSchema,
  BulkExtendResponseSchema,
  CandidateExtraTimeSchema,
  CandidateListSchema,
  CandidateSessionSchema,
  CandidatesSnapshotSchema,
  CandidateTimelineSchema,
  CsvImportResultSchema,
  QtiImportResultSchema,
  ReopenResponseSchema,
  EmergencyImportResultSchema,
  EnrolledCandidatesSchema,
  ExamEditsSchema,
  ExamHealthSchema,
  ExamGradersSchema,
  ExamProctorsSchema,
  ExportKeyResponseSchema,
  ExtendResponseSchema,
  ForceSubmitResponseSchema,
  HealthSchema,
  HeartbeatResponseSchema,
  JoinLinkChangeSchema,
  PauseResponseSchema,
  StaffAccountResponseSchema,
  StaffListSchema,
  StaffSessionSchema,
  StaffWithPasswordSchema,
  SubmitResponseSchema,
  SentAnnouncementSchema,
  StaffAnnouncementsSchema,
  GradingDisagreementsSchema,
  GradingOverviewSchema,
  GradingQueueSchema,
  SavedGradeSchema,
  CandidateResultSchema,
  ReleaseStateSchema,
  StaffAttemptResultSchema,
  LateAnswerListSchema,
  LateAnswerReviewSchema,
  ReceiptVerdictSchema,
  CreatedWebhookSchema,
  ResultsFeedSchema,
  RotatedSecretSchema,
  WebhookAlertsSchema,
  WebhookDeliveryDetailSchema,
  WebhookDeliverySchema,
  WebhookEndpointSchema,
} from "./responses";

export type ApiMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** How the reference page and the document's tags group operations. */
export const API_AREAS = ["admin", "proctor", "candidate", "sessions", "operations"] as const;
export type ApiArea = (typeof API_AREAS)[number];

export type ApiResponse = {
  description: string;
  /** The body's schema; absent for a response without a body (204). */
  schema?: z.ZodType;
  /** `application/json` unless said. */
  contentType?: string;
  /** Response headers worth knowing, by name: what each says. */
  headers?: Record<string, string>;
};

/**
 * One operation of the API, as the OpenAPI document (./build-document.ts) and the staff's reference page
 * (/admin/api) show it. `params` and `body` are the very constants the route passes to `route()`;
 * registry.test.ts imports every app/api route and fails when an exported handler has no entry here (or an
 * entry has no handler), or when the access, params or body differ.
 */
export type ApiOperation = {
  method: ApiMethod;
  /** OpenAPI path template: `/api/admin/exams/{examId}` for app/api/admin/exams/[examId]/route.ts. */
  path: `/api/${string}`;
  operationId: string;
  area: ApiArea;
  summary: string;
  description?: string;
  access: Access;
  params?: z.ZodObject;
  /** Query parameters the handler reads (documented; route() does not parse them). */
  query?: z.ZodObject;
  /** Request headers the handler reads, other than auth and Idempotency-Key. */
  requestHeaders?: { name: string; description: string }[];
  body?: z.ZodType;
  /**
   * `operation`: the route takes `z.unknown()` and the operation checks `body` after the caller's scope
   * (another exam's id is a 404 whatever the body). `route` (the default): `body` is the route's schema.
   */
  bodyCheckedBy?: "route" | "operation";
  isBodyOptional?: boolean;
  /**
   * The route also takes a `text/csv` body (route()'s `csv`): what the file holds. The document lists it
   * beside `application/json` under the request body's content types.
   */
  csvBody?: string;
  /** The route takes an `application/zip` body (route()'s `zip`): what the archive holds. */
  zipBody?: string;
  /**
   * A staff member whose password an admin set may call this route before choosing their own (route()'s
   * `allowsPendingPasswordChange`); every other staff route can answer 403 PASSWORD_CHANGE_REQUIRED.
   */
  allowsPendingPasswordChange?: boolean;
  idempotencyKey?: "required" | "optional";
  /** A sync request with its own rate limit (route()'s `limit`): 429 RATE_LIMITED with Retry-After. */
  isRateLimited?: boolean;
  /** The success responses by status. */
  responses: Partial<Record<number, ApiResponse>>;
  /**
   * Error codes the operation itself throws. Those that follow from the route's config (401/403 from
   * `access`, 404 from `params`, 400/413/415/422 from `body`, 429 from the limit, 500/503) are added by
   * the document builder.
   */
  errors?: ErrorCode[];
  /** The `error.details` a code carries for this operation, where it has a fixed shape (EDIT_CONFLICT's exam). */
  errorDetails?: Partial<Record<ErrorCode, z.ZodType>>;
};

const IDEMPOTENT_REPLAYED = { "Idempotent-Replayed": "`true` when this is the stored answer to an earlier request" };

/**
 * Every endpoint under app/api. To register a route, add one entry (docs/api.md, "Registering a route").
 */
export const API_OPERATIONS: ApiOperation[] = [
  // --- admin ---
  {
    method: "POST",
    path: "/api/admin/exams",
    operationId: "createExam",
    area: "admin",
    summary: "Create an exam with its questions",
    description:
      "Creates the exam and all its questions in one transaction; question positions follow the input order. " +
      "`status` defaults to `draft`, and only a `published` exam can be started; a draft may start without " +
      "questions, any other status needs one. Without `opensAt`/`closesAt` the exam is always open.",
    access: "admin",
    body: CreateExamSchema,
    responses: {
      201: { description: "The exam as its editor reads it (revision 1), questions in order", schema: AdminExamSchema },
    },
  },
  {
    method: "GET",
    path: "/api/admin/exams/{examId}",
    operationId: "getAdminExam",
    area: "admin",
    summary: "An exam as its editor reads it",
    description: "Every field, answer keys included, and the `revision` the next PATCH must send.",
    access: "admin",
    params: ExamParamsSchema,
    responses: { 200: { description: "The exam", schema: AdminExamSchema } },
  },
  {
    method: "PATCH",
    path: "/api/admin/exams/{examId}",
    operationId: "updateExam",
    area: "admin",
    summary: "Edit an exam",
    description:
      "Any subset of the fields, with the `revision` the edit is based on; an older revision is 409 " +
      "EDIT_CONFLICT with the current exam in `details.exam`, and nothing is written. `questions` is the whole " +
      "new list in order: a question keeping its `id` is updated, one without is added, one left out is " +
      "removed. Once candidates have started, only corrections (prompts, labels, keys, points) are allowed " +
      "(QUESTIONS_LOCKED); a rubric change is recorded in the exam's edits but re-scores nothing. `secondMarking` " +
      "cannot change once any answer of the exam is marked (SECOND_MARKING_LOCKED). `status` moves the exam " +
      "along its lifecycle.",
    access: "admin",
    params: ExamParamsSchema,
    body: PatchExamSchema,
    responses: { 200: { description: "The exam after the edit, with its new revision", schema: AdminExamSchema } },
    errors: [
      "EDIT_CONFLICT",
      "QUESTIONS_LOCKED",
      "SECOND_MARKING_LOCKED",
      "STATUS_TRANSITION_REFUSED",
      "PUBLISH_CHECK_FAILED",
    ],
    errorDetails: { EDIT_CONFLICT: z.object({ exam: AdminExamSchema }) },
  },
  {
    method: "DELETE",
    path: "/api/admin/exams/{examId}",
    operationId: "deleteExam",
    area: "admin",
    summary: "Delete an exam nobody has started",
    description: "Once a candidate has started it the exam is evidence: 409 EXAM_HAS_ATTEMPTS; close or archive it.",
    access: "admin",
    params: ExamParamsSchema,
    responses: { 204: { description: "Deleted, with its questions and enrollments" } },
    errors: ["EXAM_HAS_ATTEMPTS"],
  },
  {
    method: "POST",
    path: "/api/admin/exams/{examId}/duplicate",
    operationId: "duplicateExam",
    area: "admin",
    summary: "Copy an exam as a new draft",
    description: "The questions and settings, no candidates. The body (optional) names the copy's title.",
    access: "admin",
    params: ExamParamsSchema,
    body: DuplicateExamSchema,
    isBodyOptional: true,
    responses: { 201: { description: "The copy", schema: AdminExamSchema } },
  },
  {
    method: "GET",
    path: "/api/admin/exams/{examId}/edits",
    operationId: "listExamEdits",
    area: "admin",
    summary: "Corrections made after candidates started",
    description: "One entry per changed field of a question, newest first (at most 500).",
    access: "admin",
    params: ExamParamsSchema,
    responses: { 200: { description: "The corrections", schema: ExamEditsSchema } },
  },
  {
    method: "GET",
    path: "/api/admin/exams/{examId}/qti",
    operationId: "exportExamQti",
    area: "admin",
    summary: "The exam's questions as a QTI 3.0 package",
    description:
      "An IMS content package (zip): imsmanifest.xml, an assessment test listing the items in exam order and " +
      'one qti-assessment-item per question (docs/authoring.md, "QTI 3.0").',
    access: "admin",
    params: ExamParamsSchema,
    responses: {
      200: {
        description: "A zip download",
        contentType: "application/zip",
        schema: z.string().describe("binary"),
        headers: { "Content-Disposition": "`attachment` with a file name made from the exam's title" },
      },
    },
  },
  {
    method: "POST",
    path: "/api/admin/exams/{examId}/qti",
    operationId: "importExamQti",
    area: "admin",
    summary: "Import questions from a QTI 3.0 package",
    description:
      "With `?dryRun=1` the preview of every item (ok, or why it cannot be imported), nothing written. " +
      "Without it the items are appended to the exam's questions as one edit (a new revision; refused like " +
      "any edit once candidates started, QUESTIONS_LOCKED). A package with unsupported items is refused whole " +
      "(422 QTI_ITEMS_UNSUPPORTED, the preview in `error.details`) unless `?skipUnsupported=1`; a package " +
      "that cannot be read is 422 QTI_PACKAGE_INVALID with `details.reason`.",
    access: "admin",
    params: ExamParamsSchema,
    query: QtiImportQuerySchema,
    zipBody:
      "An IMS content package (zip) with QTI 3.0 items: choice, text entry and extended text interactions. " +
      "At most 4 MiB, 2,000 files and 32 MiB of XML unpacked.",
    responses: { 200: { description: "The preview, or the import", schema: QtiImportResultSchema } },
    errors: [
      "QTI_PACKAGE_INVALID",
      "QTI_ITEMS_UNSUPPORTED",
      "EDIT_CONFLICT",
      "QUESTIONS_LOCKED",
      "UNSUPPORTED_MEDIA_TYPE",
      "PAYLOAD_TOO_LARGE",
    ],
    errorDetails: {
      EDIT_CONFLICT: z.object({ exam: AdminExamSchema }),
      QTI_ITEMS_UNSUPPORTED: QtiImportResultSchema,
      QTI_PACKAGE_INVALID: z.object({ reason: z.enum(QTI_PACKAGE_REFUSALS), file: z.string().optional() }),
    },
  },
  {
    method: "GET",
    path: "/api/admin/exams/{examId}/candidates",
    operationId: "listCandidates",
    area: "admin",
    summary: "The exam's candidates",
    description: "Each with their join link (active or revoked) and their attempt, if started.",
    access: "admin",
    params: ExamParamsSchema,
    responses: { 200: { description: "The candidates", schema: CandidateListSchema } },
  },
  {
    method: "POST",
    path: "/api/admin/exams/{examId}/candidates",
    operationId: "enrollCandidates",
    area: "admin",
    summary: "Enroll candidates (JSON or a CSV file)",
    description:
      "JSON: one entry per input entry, in input order, each with a personal join link (201). Enrolling an " +
      "email that is already enrolled is idempotent: the same enrollment and link, with the new name and " +
      'extra time. `text/csv` (docs/admin-api.md, "Candidates CSV"): with `?dryRun=1` the preview, nothing ' +
      "written (200); without it the whole file or nothing: 200 with `written: true`, or 422 VALIDATION_FAILED " +
      "with the preview in `error.details`. An import never changes a candidate already enrolled.",
    access: "admin",
    params: ExamParamsSchema,
    query: z.object({
      dryRun: DryRunQuerySchema.optional().describe("`1` or `true`: preview a CSV upload, write nothing"),
    }),
    body: EnrollCandidatesSchema,
    csvBody:
      "A header line (`name`, `email`, optionally `extra_minutes`; comma or semicolon), then one candidate a " +
      "line. UTF-8, a byte order mark is ignored.",
    responses: {
      200: { description: "A CSV import or preview, line by line", schema: CsvImportResultSchema },
      201: { description: "The enrolled candidates and their join links (JSON)", schema: EnrolledCandidatesSchema },
    },
    errorDetails: {
      VALIDATION_FAILED: z.union([
        z.object({ issues: z.array(z.object({ path: z.string(), message: z.string() })) }),
        CsvImportResultSchema.describe("a refused CSV file: the preview, errors and all"),
      ]),
    },
  },
  {
    method: "PATCH",
    path: "/api/admin/exams/{examId}/candidates/{enrollmentId}",
    operationId: "updateCandidate",
    area: "admin",
    summary: "Set a candidate's extra time",
    description:
      "The candidate's total extra time (an accommodation), before or during the exam: during it the deadline " +
      "moves by the difference, as a proctor's extension does. Once started it can be raised, not lowered (422 VALIDATION_FAILED).",
    access: "admin",
    params: ExamCandidateParamsSchema,
    body: UpdateCandidateSchema,
    responses: { 200: { description: "What changed", schema: CandidateExtraTimeSchema } },
    errors: ["ALREADY_SUBMITTED"],
  },
  {
    method: "POST",
    path: "/api/admin/exams/{examId}/candidates/{enrollmentId}/join-link",
    operationId: "changeJoinLink",
    area: "admin",
    summary: "Revoke or reissue a candidate's join link",
    description:
      "Either way the old link stops working at once and the sessions opened with it end; `reissue` leaves a " +
      "new link. Revoking a revoked link changes nothing.",
    access: "admin",
    params: ExamCandidateParamsSchema,
    body: JoinLinkActionSchema,
    responses: { 200: { description: "The link now", schema: JoinLinkChangeSchema } },
  },
  {
    method: "GET",
    path: "/api/admin/audit",
    operationId: "listAuditEvents",
    area: "admin",
    summary: "The audit log: who did what and when",
    description:
      "Newest first, filtered by exam, person, kind and time; keyset pages (`nextCursor`). With `?format=csv` or " +
      "`Accept: text/csv`, the whole filtered log as one CSV download (UTF-8 with a byte order mark; a cell " +
      "starting with = + - @ gets a leading apostrophe). Entries can never be changed or deleted.",
    access: "admin",
    query: AuditQuerySchema,
    responses: {
      200: {
        description: "A page of entries (JSON), or the CSV file",
        schema: AuditPageSchema,
        headers: { "Content-Disposition": '`attachment; filename="audit-log.csv"` (CSV only)' },
      },
    },
    errors: ["VALIDATION_FAILED"],
  },
  {
    method: "POST",
    path: "/api/admin/attempts/{attemptId}/reopen",
    operationId: "reopenAttempt",
    area: "admin",
    summary: "Reopen a submitted attempt",
    description:
      "Unfreezes the paper with `seconds` of new time (now by the database's clock, capped at the exam's " +
      "closesAt), within the exam's window only. The submission and its receipt move to the attempt's " +
      "submission history, never deleted; the next submit creates version + 1. With an Idempotency-Key a " +
      "retry never reopens twice: it gets the stored result.",
    access: "admin",
    params: AttemptParamsSchema,
    body: ReopenSchema,
    bodyCheckedBy: "operation",
    idempotencyKey: "optional",
    responses: {
      200: {
        description: "The attempt is in progress again",
        schema: ReopenResponseSchema,
        headers: IDEMPOTENT_REPLAYED,
      },
    },
    errors: ["NOT_SUBMITTED", "EXAM_CLOSED", "IDEMPOTENCY_KEY_REUSED", "REQUEST_IN_PROGRESS"],
  },
  {
    method: "GET",
    path: "/api/admin/attempts/{attemptId}/result",
    operationId: "getAttemptResult",
    area: "admin",
    summary: "A paper's result and every version of it",
    description:
      "The candidate (name, email), the current result with per-question points in the exam's order, the marks " +
      "and accepted late answers behind it, and every result version newest first: its cause, who, when, why, " +
      "total and per-question points. Versions are append-only, so an earlier one reads exactly as it was. " +
      "An attempt not submitted yet has no current result and no versions.",
    access: "admin",
    params: AttemptParamsSchema,
    responses: { 200: { description: "The result with its versions", schema: StaffAttemptResultSchema } },
  },
  {
    method: "GET",
    path: "/api/admin/exams/{examId}/candidates/join-links.csv",
    operationId: "exportJoinLinks",
    area: "admin",
    summary: "Every candidate's join link as CSV",
    access: "admin",
    params: ExamParamsSchema,
    responses: {
      200: {
        description: "A CSV download (UTF-8)",
        contentType: "text/csv",
        schema: z.string(),
        headers: { "Content-Disposition": '`attachment; filename="join-links-{examId}.csv"`' },
      },
    },
  },
  {
    method: "GET",
    path: "/api/admin/exams/{examId}/grading",
    operationId: "readGradingOverview",
    area: "admin",
    summary: "The exam's grading per question",
    description:
      "Per question, in position order: submitted papers, how many the rules leave to a person, how many of " +
      "those still wait for the first marker (and the second, with double marking), and how many double marks " +
      "disagree with no final mark. Counted from the answers and marks, so a paper whose result is still " +
      "being computed counts too. An admin, the bearer token, or a grader assigned to the exam.",
    access: "grader",
    params: ExamParamsSchema,
    responses: { 200: { description: "The overview", schema: GradingOverviewSchema } },
  },
  {
    method: "GET",
    path: "/api/admin/exams/{examId}/grading/disagreements",
    operationId: "listGradingDisagreements",
    area: "admin",
    summary: "Double marks waiting to be settled",
    description:
      "Every (question, paper) whose first and second marks differ and that no final mark settles, with both " +
      "marks, in question and candidate-code order. Blind: names are null until the results are released. " +
      "Empty when the exam has no double marking.",
    access: "admin",
    params: ExamParamsSchema,
    responses: { 200: { description: "The disagreements", schema: GradingDisagreementsSchema } },
  },
  {
    method: "GET",
    path: "/api/admin/exams/{examId}/grading/{questionId}",
    operationId: "readGradingQueue",
    area: "admin",
    summary: "One question's grading queue (blind)",
    description:
      "An admin, the bearer token, or a grader assigned to the exam (anyone else is 403). " +
      "Every submitted paper's answer to the question, in candidate-code order, with how the result decides it " +
      "now and the marks the given `marker` may see (first and second markers see only their own). Names are " +
      "null until the exam's results are released. `final` (both marks, to settle) is an admin's: a grader " +
      "gets 403.",
    access: "grader",
    params: GradingQuestionParamsSchema,
    query: GradingQueueQuerySchema,
    responses: { 200: { description: "The queue", schema: GradingQueueSchema } },
  },
  {
    method: "PUT",
    path: "/api/admin/exams/{examId}/grading/{questionId}/{attemptId}",
    operationId: "saveGrade",
    area: "admin",
    summary: "Mark one answer",
    description:
      "An admin, the bearer token, or a grader assigned to the exam (anyone else is 403). " +
      "Points (at most the question's, at most four decimals) and a comment, by `marker`, with the `revision` " +
      "of the mark this change is based on (0 for a new one). A `final` mark (settling) is an admin's (403 for " +
      "a grader), and one person cannot give both the first and the second mark of an answer (409 SAME_MARKER). " +
      "Another grader's save on the same revision wins " +
      "once: the other gets 409 GRADE_CONFLICT with the current mark, and nothing is written. The paper's " +
      "result gets a new version in the same transaction.",
    access: "grader",
    params: GradeParamsSchema,
    body: SaveGradeSchema,
    responses: { 200: { description: "The saved mark", schema: SavedGradeSchema } },
    errors: ["GRADE_CONFLICT", "SAME_MARKER"],
    errorDetails: { GRADE_CONFLICT: z.object({ current: z.unknown() }) },
  },
  {
    method: "POST",
    path: "/api/admin/exams/{examId}/results/release",
    operationId: "releaseResults",
    area: "admin",
    summary: "Release the exam's results to its candidates",
    description: "Idempotent: releasing released results keeps the first release time.",
    access: "admin",
    params: ExamParamsSchema,
    responses: { 200: { description: "When the results were released", schema: ReleaseStateSchema } },
  },
  {
    method: "DELETE",
    path: "/api/admin/exams/{examId}/results/release",
    operationId: "withdrawResults",
    area: "admin",
    summary: "Withdraw the release",
    access: "admin",
    params: ExamParamsSchema,
    responses: { 200: { description: "Not released any more (releasedAt null)", schema: ReleaseStateSchema } },
  },
  {
    method: "GET",
    path: "/api/admin/exams/{examId}/late-answers",
    operationId: "listLateAnswers",
    area: "admin",
    summary: "The exam's late answers beside the frozen ones",
    access: "admin",
    params: ExamParamsSchema,
    responses: { 200: { description: "Oldest first, with any decision", schema: LateAnswerListSchema } },
  },
  {
    method: "POST",
    path: "/api/admin/exams/{examId}/late-answers/{lateAnswerId}/decision",
    operationId: "decideLateAnswer",
    area: "admin",
    summary: "Accept a late answer into the result, or reject it with a reason",
    description:
      "Once per late answer (a second decision is 409 LATE_ANSWER_DECIDED). Accepting never changes the frozen " +
      "paper or its digest: the result gets a new version scoring the late value instead.",
    access: "admin",
    params: LateAnswerParamsSchema,
    body: LateAnswerDecisionSchema,
    responses: { 201: { description: "The late answer with its decision", schema: LateAnswerReviewSchema } },
    errors: ["LATE_ANSWER_DECIDED"],
  },
  {
    method: "POST",
    path: "/api/admin/receipts/verify",
    operationId: "verifyReceipt",
    area: "admin",
    summary: "Check a candidate's receipt file",
    description:
      "The body is the receipt file as the candidate downloads it. 200 whether it is valid or not: valid means the " +
      "server's signature matches the attempt id, submission time and digest, and the submission it names exists " +
      "(current, or earlier and reopened since). digestMatchesPaper says whether the frozen paper still has that " +
      "digest. A body that is not a receipt file is 422.",
    access: "admin",
    body: ReceiptFileSchema,
    responses: { 200: { description: "The verdict", schema: ReceiptVerdictSchema } },
  },
  {
    method: "GET",
    path: "/api/admin/exams/{examId}/results.csv",
    operationId: "exportResultsCsv",
    area: "admin",
    summary: "Every enrolled candidate's result as CSV",
    description:
      "One row per enrolled candidate: name, email, status (not_started, in_progress, submitted), submitted_at, " +
      "score, max_score, graded (true when no answer waits for a person), then q<position> per question with the " +
      "points (exact decimals, at most four places). UTF-8 with a byte order mark, CRLF, streamed.",
    access: "admin",
    params: ExamParamsSchema,
    responses: {
      200: {
        description: "A CSV download (UTF-8 with BOM)",
        contentType: "text/csv",
        schema: z.string(),
        headers: { "Content-Disposition": '`attachment; filename="results-{examId}.csv"`' },
      },
    },
  },
  {
    method: "GET",
    path: "/api/admin/exams/{examId}/results",
    operationId: "listExamResults",
    area: "admin",
    summary: "The release state and every enrolled candidate's current result",
    description:
      "In enrollment order: status (not_started, in_progress, submitted), the current score (null until the " +
      "paper is scored) and whether it is graded (no answer waits for a person).",
    access: "admin",
    params: ExamParamsSchema,
    responses: { 200: { description: "The exam's results", schema: ExamResultsSchema } },
  },
  {
    method: "POST",
    path: "/api/admin/exams/{examId}/results/regrade",
    operationId: "regradeExam",
    area: "admin",
    summary: "Score every submitted paper again",
    description:
      "Queues every submitted paper (audited); the results worker scores them within about a second, and a paper " +
      "whose score does not change gets no new result version.",
    access: "admin",
    params: ExamParamsSchema,
    responses: { 202: { description: "How many papers were queued", schema: RegradeQueuedSchema } },
  },
  {
    method: "GET",
    path: "/api/admin/exams/{examId}/statistics",
    operationId: "readExamStatistics",
    area: "admin",
    summary: "Per-question and per-exam statistics over the scored papers",
    description:
      "Facility, discrimination (item–rest correlation), score distribution, blanks and option frequencies per " +
      "question; mean, median, sample standard deviation, Cronbach's alpha and a histogram of totals per exam. " +
      "Undefined figures are null. Time per question is not reported: only each answer's last save time is kept.",
    access: "admin",
    params: ExamParamsSchema,
    responses: { 200: { description: "The statistics", schema: ExamStatisticsSchema } },
  },
  {
    method: "GET",
    path: "/api/admin/exams/{examId}/answers.csv",
    operationId: "exportAnswersCsv",
    area: "admin",
    summary: "Every submitted answer as CSV",
    description:
      "One row per answer of every submitted paper: name, email, attempt_id, position, question_id, type, answer " +
      '(option labels joined with "; ", text or number), version, answered_at. UTF-8 with a byte order mark, ' +
      "CRLF, streamed.",
    access: "admin",
    params: ExamParamsSchema,
    responses: {
      200: {
        description: "A CSV download (UTF-8 with BOM)",
        contentType: "text/csv",
        schema: z.string(),
        headers: { "Content-Disposition": '`attachment; filename="answers-{examId}.csv"`' },
      },
    },
  },
  {
    method: "GET",
    path: "/api/admin/exams/{examId}/results.json",
    operationId: "exportResultsJson",
    area: "admin",
    summary: "Every candidate's result with every version, as JSON",
    description:
      "The exam, its questions with their maximum points, and per enrolled candidate the current result and " +
      "every result version with cause, actor, reason, time and scores. Streamed.",
    access: "admin",
    params: ExamParamsSchema,
    responses: {
      200: {
        description: "A JSON download",
        contentType: "application/json",
        schema: z.object({
          exam: z.object({}).passthrough(),
          questions: z.array(z.unknown()),
          candidates: z.array(z.unknown()),
        }),
        headers: { "Content-Disposition": '`attachment; filename="results-{examId}.json"`' },
      },
    },
  },
  {
    method: "GET",
    path: "/api/admin/exams/{examId}/proctors",
    operationId: "listExamProctors",
    area: "admin",
    summary: "The proctors assigned to an exam",
    access: "admin",
    params: ExamParamsSchema,
    responses: { 200: { description: "The proctors, by name", schema: ExamProctorsSchema } },
  },
  {
    method: "PUT",
    path: "/api/admin/exams/{examId}/proctors/{staffId}",
    operationId: "assignProctor",
    area: "admin",
    summary: "Assign a proctor to an exam",
    description:
      "Idempotent. Only active proctor accounts are assigned (admins see every exam): an admin's id, or a disabled account's, is 422.",
    access: "admin",
    params: ExamStaffParamsSchema,
    responses: { 204: { description: "Assigned" } },
    errors: ["VALIDATION_FAILED"],
  },
  {
    method: "DELETE",
    path: "/api/admin/exams/{examId}/proctors/{staffId}",
    operationId: "unassignProctor",
    area: "admin",
    summary: "End a proctor's assignment",
    description: "Idempotent.",
    access: "admin",
    params: ExamStaffParamsSchema,
    responses: { 204: { description: "Not (or no longer) assigned" } },
  },
  {
    method: "GET",
    path: "/api/admin/exams/{examId}/graders",
    operationId: "listExamGraders",
    area: "admin",
    summary: "The graders assigned to an exam",
    access: "admin",
    params: ExamParamsSchema,
    responses: { 200: { description: "The graders, by name", schema: ExamGradersSchema } },
  },
  {
    method: "PUT",
    path: "/api/admin/exams/{examId}/graders/{staffId}",
    operationId: "assignGrader",
    area: "admin",
    summary: "Assign a grader to an exam",
    description:
      "Idempotent. The grader may then read this exam's grading queues and mark its answers, and nothing else. " +
      "Only active grader accounts are assigned (admins mark every exam): another role's id, or a disabled " +
      "account's, is 422.",
    access: "admin",
    params: ExamStaffParamsSchema,
    responses: { 204: { description: "Assigned" } },
    errors: ["VALIDATION_FAILED"],
  },
  {
    method: "DELETE",
    path: "/api/admin/exams/{examId}/graders/{staffId}",
    operationId: "unassignGrader",
    area: "admin",
    summary: "End a grader's assignment",
    description: "Idempotent. The grader's next grading request for the exam is 403.",
    access: "admin",
    params: ExamStaffParamsSchema,
    responses: { 204: { description: "Not (or no longer) assigned" } },
  },
  {
    method: "GET",
    path: "/api/admin/staff",
    operationId: "listStaff",
    area: "admin",
    summary: "Every staff account",
    access: "admin",
    responses: { 200: { description: "The accounts", schema: StaffListSchema } },
  },
  {
    method: "POST",
    path: "/api/admin/staff",
    operationId: "createStaff",
    area: "admin",
    summary: "Create an admin or proctor account",
    description:
      "The answer carries a temporary password, in this response only; the new member must change it at " +
      "first sign-in.",
    access: "admin",
    body: CreateStaffSchema,
    responses: { 201: { description: "The account and its temporary password", schema: StaffWithPasswordSchema } },
    errors: ["STAFF_EMAIL_TAKEN"],
  },
  {
    method: "PATCH",
    path: "/api/admin/staff/{staffId}",
    operationId: "updateStaff",
    area: "admin",
    summary: "Disable or enable a staff account",
    description:
      "Disabling ends the account's sessions at once. The last active admin, and oneself, cannot be disabled.",
    access: "admin",
    params: StaffParamsSchema,
    body: UpdateStaffSchema,
    responses: { 200: { description: "The account", schema: StaffAccountResponseSchema } },
    errors: ["CANNOT_DISABLE_SELF", "LAST_ADMIN"],
  },
  {
    method: "POST",
    path: "/api/admin/staff/{staffId}/password-reset",
    operationId: "resetStaffPassword",
    area: "admin",
    summary: "Give a staff member a new temporary password",
    description:
      "The account's sessions end. With `passwordChangedAt` (from the list), a password changed since is 409 " +
      "STAFF_CHANGED and nothing happens. The body may be empty.",
    access: "admin",
    params: StaffParamsSchema,
    body: ResetStaffPasswordSchema,
    isBodyOptional: true,
    responses: { 200: { description: "The account and its temporary password", schema: StaffWithPasswordSchema } },
    errors: ["STAFF_CHANGED"],
  },
  {
    method: "POST",
    path: "/api/admin/emergency-exports",
    operationId: "importEmergencyExport",
    area: "admin",
    summary: "Upload a candidate's emergency export file",
    description:
      "Decrypts the file a candidate downloaded while offline and applies its answers with the autosave " +
      "rule, or keeps them as late answers when the attempt is frozen. Scoped to the uploader's exams.",
    access: "proctor",
    body: EmergencyExportFileSchema,
    responses: {
      200: { description: "What the file held and what was done with it", schema: EmergencyImportResultSchema },
    },
  },

  // --- proctor ---
  {
    method: "GET",
    path: "/api/proctor/exams/{examId}/candidates",
    operationId: "getCandidatesSnapshot",
    area: "proctor",
    summary: "Every candidate's live status",
    description: "What a dashboard loads first, and again after a lost events stream.",
    access: "proctor",
    params: ExamParamsSchema,
    responses: { 200: { description: "The snapshot", schema: CandidatesSnapshotSchema } },
  },
  {
    method: "GET",
    path: "/api/proctor/exams/{examId}/events",
    operationId: "streamExamEvents",
    area: "proctor",
    summary: "Server-sent events of the exam's candidates",
    description:
      "Events `ready` { serverTime, resumed }, `candidates` { serverTime, candidates }, `resync` " +
      '{ serverTime, reason }; a `: keep-alive` comment every 15 s (docs/sync-protocol.md, "Proctor dashboard").',
    access: "proctor",
    params: ExamParamsSchema,
    query: z.object({
      lastEventId: z.string().optional().describe("resume after this event (a snapshot's `lastEventId`)"),
    }),
    requestHeaders: [{ name: "Last-Event-ID", description: "resume after this event (EventSource sends it)" }],
    responses: { 200: { description: "An event stream", contentType: "text/event-stream", schema: z.string() } },
  },
  {
    method: "GET",
    path: "/api/proctor/exams/{examId}/health",
    operationId: "getExamHealth",
    area: "proctor",
    summary: "The exam's sync health over the last hour",
    access: "proctor",
    params: ExamParamsSchema,
    responses: { 200: { description: "Rates, p99s and one point per minute", schema: ExamHealthSchema } },
  },
  {
    method: "GET",
    path: "/api/proctor/exams/{examId}/candidates/{enrollmentId}/timeline",
    operationId: "getCandidateTimeline",
    area: "proctor",
    summary: "One candidate's attempt as a timeline",
    access: "proctor",
    params: ExamCandidateParamsSchema,
    responses: { 200: { description: "Entries, oldest first", schema: CandidateTimelineSchema } },
  },
  {
    method: "POST",
    path: "/api/proctor/exams/{examId}/extend",
    operationId: "extendCandidates",
    area: "proctor",
    summary: "Extra time for a selection of candidates",
    description:
      "One result per distinct enrollment id, in request order. With an Idempotency-Key a retry never " +
      "extends anyone twice.",
    access: "proctor",
    params: ExamParamsSchema,
    body: BulkExtendSchema,
    bodyCheckedBy: "operation",
    idempotencyKey: "optional",
    responses: {
      200: { description: "One result per candidate", schema: BulkExtendResponseSchema, headers: IDEMPOTENT_REPLAYED },
    },
    errors: ["IDEMPOTENCY_KEY_REUSED", "REQUEST_IN_PROGRESS"],
  },
  {
    method: "POST",
    path: "/api/proctor/exams/{examId}/announcements",
    operationId: "sendAnnouncement",
    area: "proctor",
    summary: "Send an announcement to the exam's candidates",
    description:
      "To every candidate of the exam, or to `enrollmentIds` (each must be a candidate of this exam, else 422 " +
      "naming it). Pushed to the candidates' open pages; the others read it when their page reconnects. With an " +
      "Idempotency-Key a retry sends nothing twice: it gets the first 201.",
    access: "proctor",
    params: ExamParamsSchema,
    body: SendAnnouncementSchema,
    bodyCheckedBy: "operation",
    idempotencyKey: "optional",
    responses: {
      201: { description: "Sent", schema: SentAnnouncementSchema, headers: IDEMPOTENT_REPLAYED },
    },
    errors: ["IDEMPOTENCY_KEY_REUSED"],
  },
  {
    method: "GET",
    path: "/api/proctor/exams/{examId}/announcements",
    operationId: "listAnnouncements",
    area: "proctor",
    summary: "The exam's announcements, with how many candidates received each",
    access: "proctor",
    params: ExamParamsSchema,
    responses: { 200: { description: "Newest first", schema: StaffAnnouncementsSchema } },
  },
  {
    method: "POST",
    path: "/api/proctor/exams/{examId}/pause",
    operationId: "pauseExam",
    area: "proctor",
    summary: "Pause the exam, or a selection of its candidates",
    description:
      "Stops the clock of every running attempt in scope (without `enrollmentIds`: the whole exam, and candidates " +
      "who start meanwhile start paused). Paused attempts are never auto-submitted; editing is locked on the " +
      "candidate's page, a submit is still accepted. Pausing what is already paused answers 200 with `attempts: 0`. " +
      "With an Idempotency-Key a retry never pauses twice: it gets the stored response.",
    access: "proctor",
    params: ExamParamsSchema,
    body: PauseSchema,
    bodyCheckedBy: "operation",
    idempotencyKey: "optional",
    responses: {
      200: { description: "What the pause did", schema: PauseResponseSchema, headers: IDEMPOTENT_REPLAYED },
    },
    errors: ["IDEMPOTENCY_KEY_REUSED", "REQUEST_IN_PROGRESS"],
  },
  {
    method: "POST",
    path: "/api/proctor/exams/{examId}/resume",
    operationId: "resumeExam",
    area: "proctor",
    summary: "Resume the exam, or a selection of its candidates",
    description:
      "Moves each paused attempt's deadline by exactly the time it was paused (the database's clock, to the " +
      "millisecond, not capped by the exam's closing time) and ends a whole-exam pause. Resuming what is not " +
      "paused answers 200 with `attempts: 0`. With an Idempotency-Key a retry never resumes twice.",
    access: "proctor",
    params: ExamParamsSchema,
    body: ResumeSchema,
    bodyCheckedBy: "operation",
    idempotencyKey: "optional",
    responses: {
      200: { description: "What the resume did", schema: PauseResponseSchema, headers: IDEMPOTENT_REPLAYED },
    },
    errors: ["IDEMPOTENCY_KEY_REUSED", "REQUEST_IN_PROGRESS"],
  },
  {
    method: "POST",
    path: "/api/proctor/attempts/{attemptId}/extend",
    operationId: "extendAttempt",
    area: "proctor",
    summary: "Extra time for one candidate",
    description: "With an Idempotency-Key a retry never extends twice: it gets the stored result.",
    access: "proctor",
    params: AttemptParamsSchema,
    body: ExtendSchema,
    bodyCheckedBy: "operation",
    idempotencyKey: "optional",
    responses: {
      200: { description: "The new deadline", schema: ExtendResponseSchema, headers: IDEMPOTENT_REPLAYED },
    },
    errors: ["ALREADY_SUBMITTED", "IDEMPOTENCY_KEY_REUSED", "REQUEST_IN_PROGRESS"],
  },
  {
    method: "POST",
    path: "/api/proctor/attempts/{attemptId}/force-submit",
    operationId: "forceSubmitAttempt",
    area: "proctor",
    summary: "Submit on the candidate's behalf",
    description:
      "Submits what the server holds. Idempotent without a key: an attempt already submitted answers 200 " +
      "with that submission and `alreadySubmitted: true`. The body may be empty.",
    access: "proctor",
    params: AttemptParamsSchema,
    body: ForceSubmitSchema,
    bodyCheckedBy: "operation",
    isBodyOptional: true,
    responses: { 200: { description: "The submission", schema: ForceSubmitResponseSchema } },
    errors: ["NOT_STARTED"],
  },

  // --- candidate ---
  {
    method: "POST",
    path: "/api/exams/{examId}/attempts",
    operationId: "startAttempt",
    area: "candidate",
    summary: "Start or resume the candidate's attempt",
    description: "Idempotent: one attempt per candidate per exam.",
    access: "candidate",
    params: ExamParamsSchema,
    responses: {
      200: { description: "Resumed", schema: AttemptViewSchema },
      201: { description: "Started", schema: AttemptViewSchema },
    },
    errors: ["EXAM_NOT_OPEN", "EXAM_CLOSED"],
  },
  {
    method: "GET",
    path: "/api/attempts/{attemptId}",
    operationId: "getAttempt",
    area: "candidate",
    summary: "The attempt's state on the server",
    access: "candidate",
    params: AttemptParamsSchema,
    responses: { 200: { description: "The attempt", schema: AttemptViewSchema } },
  },
  {
    method: "POST",
    path: "/api/attempts/{attemptId}/announcements/receipts",
    operationId: "acknowledgeAnnouncements",
    area: "candidate",
    summary: "This device has stored these announcements",
    description:
      "Idempotent: a receipt already recorded is kept as it is. Ids of announcements this candidate may not read " +
      "are ignored.",
    access: "candidate",
    params: AttemptParamsSchema,
    body: AnnouncementReceiptsSchema,
    responses: { 204: { description: "Recorded" } },
  },
  {
    method: "POST",
    path: "/api/attempts/{attemptId}/answers",
    operationId: "saveAnswers",
    area: "candidate",
    summary: "Versioned delta autosave",
    description:
      "Stores each answer iff its (version, deviceId) is greater than the stored one. A stale answer is a " +
      "normal 200 result carrying the server's value; unknown question ids are 422 and nothing is applied.",
    access: "candidate",
    params: AttemptParamsSchema,
    body: AutosaveSchema,
    isRateLimited: true,
    responses: { 200: { description: "Per answer: applied, duplicate or stale", schema: AutosaveResponseSchema } },
    errors: ["ALREADY_SUBMITTED", "DEADLINE_PASSED"],
  },
  {
    method: "POST",
    path: "/api/attempts/{attemptId}/submit",
    operationId: "submitAttempt",
    area: "candidate",
    summary: "Idempotent submit",
    description:
      "The same Idempotency-Key and body always get the same answer. A different key on a submitted attempt " +
      "is 409 ALREADY_SUBMITTED with the submission's id; clients treat it as done.",
    access: "candidate",
    params: AttemptParamsSchema,
    body: SubmitSchema,
    idempotencyKey: "required",
    isRateLimited: true,
    responses: {
      200: {
        description: "The one submission and its receipt",
        schema: SubmitResponseSchema,
        headers: IDEMPOTENT_REPLAYED,
      },
    },
    errors: ["ALREADY_SUBMITTED", "DEADLINE_PASSED", "REQUEST_IN_PROGRESS", "IDEMPOTENCY_KEY_REUSED"],
  },
  {
    method: "POST",
    path: "/api/attempts/{attemptId}/heartbeat",
    operationId: "recordHeartbeat",
    area: "candidate",
    summary: "The device's sync health",
    access: "candidate",
    params: AttemptParamsSchema,
    body: HeartbeatSchema,
    isRateLimited: true,
    responses: { 200: { description: "The attempt's time facts", schema: HeartbeatResponseSchema } },
  },
  {
    method: "GET",
    path: "/api/attempts/{attemptId}/events",
    operationId: "streamAttemptEvents",
    area: "candidate",
    summary: "The exam page's live channel",
    description: "Events `ready`, `deadline` and `submitted` (lib/shared/schemas/attempt-events.ts).",
    access: "candidate",
    params: AttemptParamsSchema,
    query: z.object({ deviceId: z.string().optional().describe("the device whose presence this channel is") }),
    responses: { 200: { description: "An event stream", contentType: "text/event-stream", schema: z.string() } },
  },
  {
    method: "GET",
    path: "/api/attempts/{attemptId}/export-key",
    operationId: "getExportKey",
    area: "candidate",
    summary: "The attempt's emergency-export public key",
    access: "candidate",
    params: AttemptParamsSchema,
    responses: { 200: { description: "The key", schema: ExportKeyResponseSchema } },
  },
  {
    method: "GET",
    path: "/api/attempts/{attemptId}/result",
    operationId: "getCandidateResult",
    area: "candidate",
    summary: "The candidate's own result, once they may see it",
    description:
      'Only once the exam\'s results are released (or, with resultsVisibility "immediately", once nothing ' +
      "waits for a person); before that 403 RESULTS_NOT_RELEASED, which says nothing of the result.",
    access: "candidate",
    params: AttemptParamsSchema,
    responses: { 200: { description: "The result", schema: CandidateResultSchema } },
    errors: ["RESULTS_NOT_RELEASED"],
  },

  // --- sessions ---
  {
    method: "POST",
    path: "/api/session",
    operationId: "joinSession",
    area: "sessions",
    summary: "Exchange a join token for a candidate session",
    description: "The JSON twin of GET /join/{token}: sets the candidate session cookie.",
    access: "public",
    body: JoinSessionSchema,
    responses: {
      200: {
        description: "Signed in",
        schema: CandidateSessionSchema,
        headers: { "Set-Cookie": "the candidate session cookie" },
      },
    },
    errors: ["NOT_FOUND", "EXAM_CLOSED"],
  },
  {
    method: "DELETE",
    path: "/api/session",
    operationId: "leaveSession",
    area: "sessions",
    summary: "End this device's candidate session",
    access: "public",
    responses: { 204: { description: "Signed out", headers: { "Set-Cookie": "clears the cookie" } } },
  },
  {
    method: "POST",
    path: "/api/staff/session",
    operationId: "signInStaff",
    area: "sessions",
    summary: "Staff sign-in",
    description: "Email and password for a fresh (rotated) staff session cookie.",
    access: "public",
    body: StaffSignInSchema,
    responses: {
      200: {
        description: "Signed in",
        schema: StaffSessionSchema,
        headers: { "Set-Cookie": "the staff session cookie" },
      },
    },
    errors: ["UNAUTHENTICATED", "ACCOUNT_DISABLED", "TOO_MANY_SIGN_INS"],
  },
  {
    method: "DELETE",
    path: "/api/staff/session",
    operationId: "signOutStaff",
    area: "sessions",
    summary: "Staff sign-out",
    description: "Ends the session on the server, not just the cookie.",
    access: "public",
    responses: { 204: { description: "Signed out", headers: { "Set-Cookie": "clears the cookie" } } },
  },
  {
    method: "PUT",
    path: "/api/staff/password",
    operationId: "changeOwnPassword",
    area: "sessions",
    summary: "Change one's own password",
    description:
      "Needs the current password; the new one must meet the policy (422 WEAK_PASSWORD, `details.reason`). " +
      "Also the way out of a temporary password. The member's other sessions end.",
    access: "staff",
    body: ChangePasswordSchema,
    allowsPendingPasswordChange: true,
    responses: { 204: { description: "Changed" } },
    errors: ["CURRENT_PASSWORD_INCORRECT", "WEAK_PASSWORD", "STAFF_CHANGED"],
  },
  {
    method: "DELETE",
    path: "/api/staff/sessions",
    operationId: "signOutEverywhere",
    area: "sessions",
    summary: "Sign out everywhere",
    description: "Every session of the caller ends, this one included.",
    access: "staff",
    allowsPendingPasswordChange: true,
    responses: { 204: { description: "Signed out everywhere", headers: { "Set-Cookie": "clears the cookie" } } },
  },

  // --- results delivery (issue 16, docs/results.md "Delivery to other systems") ---
  {
    method: "POST",
    path: "/api/admin/exams/{examId}/webhooks",
    operationId: "createWebhookEndpoint",
    area: "admin",
    summary: "Add a webhook receiver to an exam",
    description:
      "A URL (http or https, at most 2,000 characters) and the events it wants (`submission.created`, " +
      "`result.released`, `result.updated`). Deliveries follow the Standard Webhooks specification, signed with " +
      "the returned `secret` (`whsec_…`), which is shown only here and on rotation.",
    access: "admin",
    params: ExamParamsSchema,
    body: CreateWebhookSchema,
    responses: { 201: { description: "The endpoint, with its secret", schema: CreatedWebhookSchema } },
    errors: ["VALIDATION_FAILED"],
  },
  {
    method: "GET",
    path: "/api/admin/exams/{examId}/webhooks",
    operationId: "listWebhookEndpoints",
    area: "admin",
    summary: "An exam's webhook receivers",
    description: "Each with its circuit breaker (shared by every instance) and its deliveries counted by status.",
    access: "admin",
    params: ExamParamsSchema,
    responses: {
      200: { description: "The endpoints", schema: z.object({ endpoints: z.array(WebhookEndpointSchema) }) },
    },
  },
  {
    method: "PATCH",
    path: "/api/admin/webhooks/{endpointId}",
    operationId: "updateWebhookEndpoint",
    area: "admin",
    summary: "Change a webhook receiver",
    description: "URL, events or enabled flag; enabling an endpoint a 410 disabled clears `disabledReason`.",
    access: "admin",
    params: WebhookEndpointParamsSchema,
    body: UpdateWebhookSchema,
    responses: { 200: { description: "The endpoint", schema: WebhookEndpointSchema } },
    errors: ["VALIDATION_FAILED"],
  },
  {
    method: "DELETE",
    path: "/api/admin/webhooks/{endpointId}",
    operationId: "deleteWebhookEndpoint",
    area: "admin",
    summary: "Delete a webhook receiver",
    description:
      "Its pending deliveries are cancelled (`endpoint_deleted`); its deliveries and attempts stay readable.",
    access: "admin",
    params: WebhookEndpointParamsSchema,
    responses: { 204: { description: "Deleted" } },
  },
  {
    method: "POST",
    path: "/api/admin/webhooks/{endpointId}/secret",
    operationId: "rotateWebhookSecret",
    area: "admin",
    summary: "Rotate a receiver's signing secret",
    description:
      "A new secret, shown only here. Until `previousSecretValidUntil` (24 hours) both the old and the new secret " +
      "sign every delivery: two signatures in `webhook-signature`, space-separated.",
    access: "admin",
    params: WebhookEndpointParamsSchema,
    responses: { 200: { description: "The new secret", schema: RotatedSecretSchema } },
  },
  {
    method: "POST",
    path: "/api/admin/webhooks/{endpointId}/retry",
    operationId: "retryEndpointDeliveries",
    area: "admin",
    summary: "Send a receiver's failed deliveries again",
    description:
      "Every dead or cancelled delivery of the endpoint created since `since` goes back to pending, due now, " +
      "with the same webhook-id; its attempts are kept.",
    access: "admin",
    params: WebhookEndpointParamsSchema,
    body: RetryEndpointSchema,
    responses: { 200: { description: "How many went back", schema: z.object({ requeued: z.number().int() }) } },
    errors: ["VALIDATION_FAILED"],
  },
  {
    method: "GET",
    path: "/api/admin/webhooks/deliveries",
    operationId: "listWebhookDeliveries",
    area: "admin",
    summary: "Webhook deliveries",
    description: "Newest first, by status, endpoint and exam (`limit` 1–500, default 100).",
    access: "admin",
    query: ListDeliveriesQuerySchema,
    responses: {
      200: { description: "The deliveries", schema: z.object({ deliveries: z.array(WebhookDeliverySchema) }) },
    },
    errors: ["VALIDATION_FAILED"],
  },
  {
    method: "GET",
    path: "/api/admin/webhooks/deliveries/{deliveryId}",
    operationId: "getWebhookDelivery",
    area: "admin",
    summary: "One delivery with its payload and every try",
    description:
      "`attempts` lists every request made (time, status, latency, the first 500 characters of the answer); " +
      "`attemptCount` is their number in the current run (a manual retry starts it again).",
    access: "admin",
    params: DeliveryParamsSchema,
    responses: { 200: { description: "The delivery", schema: WebhookDeliveryDetailSchema } },
  },
  {
    method: "POST",
    path: "/api/admin/webhooks/deliveries/{deliveryId}/retry",
    operationId: "retryWebhookDelivery",
    area: "admin",
    summary: "Send a dead or cancelled delivery again",
    description: "Pending again and due now, with the same webhook-id. A pending or delivered one is 409.",
    access: "admin",
    params: DeliveryParamsSchema,
    responses: { 200: { description: "The delivery", schema: WebhookDeliverySchema } },
    errors: ["DELIVERY_NOT_RETRYABLE"],
  },
  {
    method: "POST",
    path: "/api/admin/webhooks/deliveries/{deliveryId}/cancel",
    operationId: "cancelWebhookDelivery",
    area: "admin",
    summary: "Cancel a pending delivery",
    description: "Cancelled with `cancelled_by_staff`; anything not pending is 409.",
    access: "admin",
    params: DeliveryParamsSchema,
    responses: { 200: { description: "The delivery", schema: WebhookDeliverySchema } },
    errors: ["DELIVERY_NOT_CANCELLABLE"],
  },
  {
    method: "GET",
    path: "/api/admin/webhooks/alerts",
    operationId: "readWebhookAlerts",
    area: "admin",
    summary: "Delivery alerts for the admin header",
    description: "Dead-lettered deliveries and circuit breakers not closed, over every exam.",
    access: "admin",
    responses: { 200: { description: "The counts", schema: WebhookAlertsSchema } },
  },
  {
    method: "GET",
    path: "/api/admin/exams/{examId}/results/feed",
    operationId: "readResultsFeed",
    area: "admin",
    summary: "Every result version, in order, after a cursor",
    description:
      "For a receiver catching up without replays: result versions in a stable order with a cursor each; pass " +
      "the last one seen as `after`. `next` is set while more follow. A version committed late never appears " +
      "behind a cursor already handed out.",
    access: "admin",
    params: ExamParamsSchema,
    query: ResultsFeedQuerySchema,
    responses: { 200: { description: "A page of result versions", schema: ResultsFeedSchema } },
    errors: ["VALIDATION_FAILED"],
  },
  // --- operations ---
  {
    method: "GET",
    path: "/api/health",
    operationId: "checkHealth",
    area: "operations",
    summary: "Liveness",
    description: "200 while Postgres answers (Redis down is `degraded`, still 200); 503 when it does not.",
    access: "public",
    responses: {
      200: { description: "Up", schema: HealthSchema },
      503: { description: "Postgres does not answer", schema: HealthSchema },
    },
  },
  {
    method: "GET",
    path: "/api/metrics",
    operationId: "renderMetrics",
    area: "operations",
    summary: "Prometheus metrics",
    description: "Open while METRICS_TOKEN is unset; once set, `Bearer $METRICS_TOKEN` or what admins use.",
    access: "operator",
    responses: { 200: { description: "Prometheus text format", contentType: "text/plain", schema: z.string() } },
  },
  {
    method: "GET",
    path: "/api/openapi.json",
    operationId: "getOpenApiDocument",
    area: "operations",
    summary: "This document",
    access: "public",
    responses: {
      200: { description: "OpenAPI 3.1", schema: z.record(z.string(), z.unknown()) },
    },
  },
];
