import { failureFromBody, type ApiFailure } from "@/lib/shared/i18n/api-failure";
import type { CandidatesSnapshot, CandidateTimeline, ExamHealth, ExtendBody } from "@/lib/shared/schemas/proctor";
import type {
  BulkExtendResponse,
  ExtendResponse,
  ForceSubmitBody,
  ForceSubmitResponse,
} from "@/lib/shared/schemas/proctor-actions";

/**
 * The proctor API as the dashboard calls it. Every failure becomes a `ProctorApiError` carrying what failed
 * (the error code and the fields of a validation error), which the page puts in the reader's language with
 * `useDescribeFailure`; its `message` is the API's English sentence, for the console only.
 */
export class ProctorApiError extends Error {
  readonly failure: ApiFailure;

  constructor(failure: ApiFailure) {
    super(failure.kind === "network" ? "network error" : (failure.message ?? `HTTP ${failure.status}`));
    this.name = "ProctorApiError";
    this.failure = failure;
  }
}

/** What failed, for `useDescribeFailure`: an error that is not the API's counts as not reaching it. */
export function failureOf(error: Error): ApiFailure {
  return error instanceof ProctorApiError ? error.failure : { kind: "network" };
}

async function request<T>(url: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers: { Accept: "application/json", ...init.headers } });
  } catch {
    throw new ProctorApiError({ kind: "network" });
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new ProctorApiError(failureFromBody(response.status, body));
  return body as T;
}

function postJson<T>(url: string, json: unknown, headers: Record<string, string> = {}): Promise<T> {
  return request<T>(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(json),
  });
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
  return postJson<ExtendResponse>(`${attemptPath(id)}/extend`, body, { "Idempotency-Key": idempotencyKey });
}

export function extendMany(
  examId: string,
  body: ExtendBody & { enrollmentIds: string[] },
  idempotencyKey: string,
): Promise<BulkExtendResponse> {
  return postJson<BulkExtendResponse>(`${examPath(examId)}/extend`, body, { "Idempotency-Key": idempotencyKey });
}

export function forceSubmit(attemptId: string, body: ForceSubmitBody): Promise<ForceSubmitResponse> {
  return postJson<ForceSubmitResponse>(`${attemptPath(attemptId)}/force-submit`, body);
}
