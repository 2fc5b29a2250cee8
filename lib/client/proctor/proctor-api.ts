import { ApiCallError, callApi, failureOf, type ApiCallResult, type CallApiInit } from "@/lib/client/call-api";
import type { CandidateTimeline, ExamHealth, ExtendBody } from "@/lib/shared/schemas/proctor";
import type { PauseBody, PauseResponse, ResumeBody } from "@/lib/shared/schemas/pauses";
import type {
  BulkExtendResponse,
  ExtendResponse,
  ForceSubmitBody,
  ForceSubmitResponse,
} from "@/lib/shared/schemas/proctor-actions";
import type { SentAnnouncement, StaffAnnouncement } from "@/lib/shared/schemas/announcements";
import { SentAnnouncementSchema, StaffAnnouncementsSchema } from "@/lib/shared/schemas/responses/attempts";
import {
  BulkExtendResponseSchema,
  CandidatesSnapshotSchema,
  CandidateTimelineSchema,
  ExamHealthSchema,
  ExtendResponseSchema,
  ForceSubmitResponseSchema,
  PauseResponseSchema,
} from "@/lib/shared/schemas/responses/proctor";
import type { z } from "@/lib/shared/zod";

/**
 * The proctor API as the dashboard calls it, each body parsed by the response schema its route documents
 * (lib/shared/schemas/responses): a body of another shape is a failure, never a value of the wrong type.
 *
 * - The reads (`fetch…`) are React Query's `queryFn`s: a failure is thrown as an `ApiCallError`
 *   (lib/client/call-api.ts, exported here as `ProctorApiError`) carrying what failed, which the page puts in
 *   the reader's language with `useDescribeFailure` through `failureOf`.
 * - The actions (extend, pause, force-submit, announce) are `useApiAction`'s calls: they resolve with the
 *   result, a refusal included.
 */
export { ApiCallError as ProctorApiError, failureOf };

/** One read through `callApi`, parsed by `schema`; a failure is thrown as an `ApiCallError`, for React Query. */
async function read<S extends z.ZodType>(url: string, schema: S): Promise<z.output<S>> {
  const result = await callApi(url, { cache: "no-store", schema });
  if (!result.ok) throw new ApiCallError(result.failure);
  return result.body;
}

/** One action: a POST of `json` with the dialog's Idempotency-Key (when it has one), parsed by `schema`. */
function post<S extends z.ZodType>(
  url: string,
  json: unknown,
  schema: S,
  idempotencyKey?: string,
): Promise<ApiCallResult<z.output<S>>> {
  const init: CallApiInit = { method: "POST", json };
  if (idempotencyKey !== undefined) init.headers = { "Idempotency-Key": idempotencyKey };
  return callApi(url, { ...init, schema });
}

const examPath = (examId: string) => `/api/proctor/exams/${encodeURIComponent(examId)}`;
const attemptPath = (attemptId: string) => `/api/proctor/attempts/${encodeURIComponent(attemptId)}`;

/** The candidates with their facts (the status beside them is the server's; the dashboard derives its own). */
export type CandidatesSnapshotBody = z.output<typeof CandidatesSnapshotSchema>;

export function fetchCandidatesSnapshot(examId: string): Promise<CandidatesSnapshotBody> {
  return read(`${examPath(examId)}/candidates`, CandidatesSnapshotSchema);
}

export function fetchExamHealth(examId: string): Promise<ExamHealth> {
  return read(`${examPath(examId)}/health`, ExamHealthSchema);
}

export function fetchCandidateTimeline(examId: string, enrollmentId: string): Promise<CandidateTimeline> {
  return read(`${examPath(examId)}/candidates/${encodeURIComponent(enrollmentId)}/timeline`, CandidateTimelineSchema);
}

export function fetchAnnouncements(examId: string): Promise<{ announcements: StaffAnnouncement[] }> {
  return read(`${examPath(examId)}/announcements`, StaffAnnouncementsSchema);
}

export function examEventsUrl(examId: string): string {
  return `${examPath(examId)}/events`;
}

/** `id` is the attempt's, or the enrollment's for a candidate who has not started (the time waits for them). */
export function extendAttempt(
  id: string,
  body: ExtendBody,
  idempotencyKey: string,
): Promise<ApiCallResult<ExtendResponse>> {
  return post(`${attemptPath(id)}/extend`, body, ExtendResponseSchema, idempotencyKey);
}

export function extendMany(
  examId: string,
  body: ExtendBody & { enrollmentIds: string[] },
  idempotencyKey: string,
): Promise<ApiCallResult<BulkExtendResponse>> {
  return post(`${examPath(examId)}/extend`, body, BulkExtendResponseSchema, idempotencyKey);
}

/** Pause (or resume) the whole exam, or `enrollmentIds`; one Idempotency-Key per opening of the dialog. */
export function changePause(
  examId: string,
  change: { action: "pause"; body: PauseBody } | { action: "resume"; body: ResumeBody },
  idempotencyKey: string,
): Promise<ApiCallResult<PauseResponse>> {
  return post(`${examPath(examId)}/${change.action}`, change.body, PauseResponseSchema, idempotencyKey);
}

/** Idempotent by itself (a second press answers `alreadySubmitted`), so it carries no key. */
export function forceSubmit(attemptId: string, body: ForceSubmitBody): Promise<ApiCallResult<ForceSubmitResponse>> {
  return post(`${attemptPath(attemptId)}/force-submit`, body, ForceSubmitResponseSchema);
}

/** No `enrollmentIds`: every candidate of the exam. */
export function sendAnnouncement(
  examId: string,
  body: { message: string; enrollmentIds?: string[] },
  idempotencyKey: string,
): Promise<ApiCallResult<SentAnnouncement>> {
  return post(`${examPath(examId)}/announcements`, body, SentAnnouncementSchema, idempotencyKey);
}
