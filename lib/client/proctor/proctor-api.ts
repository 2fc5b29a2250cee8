import { isErrorBody } from "@/lib/shared/errors";
import type { CandidatesSnapshot, CandidateTimeline, ExamHealth, ExtendBody } from "@/lib/shared/schemas/proctor";
import type { BulkExtendResponse, ExtendResponse, ForceSubmitResponse } from "@/lib/shared/schemas/proctor-actions";

/**
 * The proctor API as the dashboard calls it. Every failure becomes a `ProctorApiError` whose message is the
 * API's own sentence (with the field issues, when the body names them), so a dialog shows it as is.
 */
export class ProctorApiError extends Error {
  readonly status: number;
  readonly code: string | null;

  constructor(message: string, status: number, code: string | null) {
    super(message);
    this.name = "ProctorApiError";
    this.status = status;
    this.code = code;
  }
}

async function request<T>(url: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers: { Accept: "application/json", ...init.headers } });
  } catch {
    throw new ProctorApiError("Holdfast could not be reached. Check your connection and try again.", 0, null);
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    if (isErrorBody(body)) {
      const issues = body.error.details?.issues;
      const issueText = Array.isArray(issues)
        ? issues
            .map((issue: { path?: unknown; message?: unknown }) =>
              typeof issue.message === "string"
                ? issue.path
                  ? `${String(issue.path)}: ${issue.message}`
                  : issue.message
                : null,
            )
            .filter(Boolean)
            .join("; ")
        : "";
      // The message often names the issues already; add them only when it does not.
      const message =
        issueText && !body.error.message.includes(issueText)
          ? `${body.error.message} (${issueText})`
          : body.error.message;
      throw new ProctorApiError(message, response.status, body.error.code);
    }
    throw new ProctorApiError(
      `Holdfast answered with an unexpected error (${response.status}). Try again in a moment.`,
      response.status,
      null,
    );
  }
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

export function forceSubmit(attemptId: string): Promise<ForceSubmitResponse> {
  return postJson<ForceSubmitResponse>(`${attemptPath(attemptId)}/force-submit`, {});
}
