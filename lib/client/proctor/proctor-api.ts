import { ApiCallError, callApi, failureOf } from "@/lib/client/call-api";
import type { SentAnnouncement, StaffAnnouncement } from "@/lib/shared/schemas/announcements";
import type { CandidatesSnapshot, CandidateTimeline, ExamHealth, ExtendBody } from "@/lib/shared/schemas/proctor";
import type { PauseBody, PauseResponse, ResumeBody } from "@/lib/shared/schemas/pauses";
import type {
  BulkExtendResponse,
  ExtendResponse,
  ForceSubmitBody,
  ForceSubmitResponse,
} from "@/lib/shared/schemas/proctor-actions";

/**
 * The proctor API as the dashboard calls it. Every failure is thrown as an `ApiCallError` (lib/client/call-api.ts,
 * exported here as `ProctorApiError`) carrying what failed (the error code and the fields of a validation error),
 * which the page puts in the reader's language with `useDescribeFailure` through `failureOf`.
 */
export { ApiCallError as ProctorApiError, failureOf };

/** One call through `callApi`; a failure is thrown as an `ApiCallError`, for React Query. */
async function request<T>(url: string, init: Parameters<typeof callApi>[1] = {}): Promise<T> {
  const result = await callApi(url, init);
  if (!result.ok) throw new ApiCallError(result.failure);
  return result.body as T;
}

const examPath = (examId: string) => `/api/proctor/exams/${encodeURIComponent(examId)}`;
const attemptPath = (attemptId: string) => `/api/proctor/attempts/${encodeURIComponent(attemptId)}`;

export function fetchCandidatesSnapshot(examId: string): Promise<CandidatesSnapshot> {
  return request<CandidatesSnapshot>(`${examPath(examId)}/candidates`, { cache: "no-store" });
}

export function fetchExamHealth(examId: string): Promise<ExamHealth> {
  return request<ExamHealth>(`${examPath(examId)}/health`, { cache: "no-store" });
}

export function fetchCandidateTimeline(examId: string, enrollmentId: string): Promise<CandidateTimeline> {
  return request<CandidateTimeline>(`${examPath(examId)}/candidates/${encodeURIComponent(enrollmentId)}/timeline`, {
    cache: "no-store",
  });
}

export function examEventsUrl(examId: string): string {
  return `${examPath(examId)}/events`;
}

/** `id` is the attempt's, or the enrollment's for a candidate who has not started (the time waits for them). */
export function extendAttempt(id: string, body: ExtendBody, idempotencyKey: string): Promise<ExtendResponse> {
  return request<ExtendResponse>(`${attemptPath(id)}/extend`, {
    method: "POST",
    json: body,
    headers: { "Idempotency-Key": idempotencyKey },
  });
}

export function extendMany(
  examId: string,
  body: ExtendBody & { enrollmentIds: string[] },
  idempotencyKey: string,
): Promise<BulkExtendResponse> {
  return request<BulkExtendResponse>(`${examPath(examId)}/extend`, {
    method: "POST",
    json: body,
    headers: { "Idempotency-Key": idempotencyKey },
  });
}

/** Pause (or resume) the whole exam, or `enrollmentIds`; one Idempotency-Key per opening of the dialog. */
export function changePause(
  examId: string,
  change: { action: "pause"; body: PauseBody } | { action: "resume"; body: ResumeBody },
  idempotencyKey: string,
): Promise<PauseResponse> {
  return request<PauseResponse>(`${examPath(examId)}/${change.action}`, {
    method: "POST",
    json: change.body,
    headers: { "Idempotency-Key": idempotencyKey },
  });
}

export function forceSubmit(attemptId: string, body: ForceSubmitBody): Promise<ForceSubmitResponse> {
  return request<ForceSubmitResponse>(`${attemptPath(attemptId)}/force-submit`, { method: "POST", json: body });
}

export function fetchAnnouncements(examId: string): Promise<{ announcements: StaffAnnouncement[] }> {
  return request<{ announcements: StaffAnnouncement[] }>(`${examPath(examId)}/announcements`, { cache: "no-store" });
}

/** No `enrollmentIds`: every candidate of the exam. */
export function sendAnnouncement(
  examId: string,
  body: { message: string; enrollmentIds?: string[] },
  idempotencyKey: string,
): Promise<SentAnnouncement> {
  return request<SentAnnouncement>(`${examPath(examId)}/announcements`, {
    method: "POST",
    json: body,
    headers: { "Idempotency-Key": idempotencyKey },
  });
}
