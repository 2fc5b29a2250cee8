import type { z } from "@/lib/shared/zod";

/**
 * The closed list of error codes Holdfast's API can answer with, and the HTTP status of each.
 * Every error response has the body `{ "error": { "code", "message", "details"? } }`.
 * Clients switch on `code`, never on `message`.
 */
export const ERROR_STATUS = {
  /** The body is not valid JSON, or a header is malformed (e.g. a bad Idempotency-Key). */
  BAD_REQUEST: 400,
  /** No session, or the session expired or was revoked. */
  UNAUTHENTICATED: 401,
  /** Signed in, but the role may not call this endpoint. */
  FORBIDDEN: 403,
  /**
   * A state-changing staff request whose `Origin` header names another site (lib/server/http/same-origin.ts).
   * Requests without an `Origin` (scripts, curl) are not affected.
   */
  CROSS_ORIGIN: 403,
  /** The staff member's password was set by an admin; only changing it (and signing out) works until then. */
  PASSWORD_CHANGE_REQUIRED: 403,
  /** The email and password are right, but an admin disabled the account. */
  ACCOUNT_DISABLED: 403,
  /**
   * The candidate may not see this result (yet): not released, or the exam never shows results. Says nothing
   * of the result itself (lib/server/results/candidate-result.ts).
   */
  RESULTS_NOT_RELEASED: 403,
  /** No such resource, or it is not yours (we never say which). */
  NOT_FOUND: 404,
  /** The HTTP method is not supported on this path. */
  METHOD_NOT_ALLOWED: 405,
  /** The exam is not published or not open yet. */
  EXAM_NOT_OPEN: 409,
  /** The exam has closed; nothing can be started any more. */
  EXAM_CLOSED: 409,
  /**
   * The attempt already has its one submission. The body's `details.submissionId` names it;
   * a client treats this as "done", not as a failure.
   */
  ALREADY_SUBMITTED: 409,
  /** The attempt's deadline plus grace has passed. */
  DEADLINE_PASSED: 409,
  /**
   * The candidate has not started their attempt, so there is nothing to act on yet (a proctor's
   * force-submit). Extra time for such a candidate is not refused: it waits in their enrollment.
   */
  NOT_STARTED: 409,
  /**
   * The attempt is not submitted (still in progress, or already reopened by another request), so there is
   * nothing to reopen; nothing changed.
   */
  NOT_SUBMITTED: 409,
  /**
   * The exam changed since the `revision` this edit was based on; nothing was written. `details.exam` is the
   * current exam (with its revision), so the editor can show both versions and re-save on the new one.
   */
  EDIT_CONFLICT: 409,
  /**
   * Another grader saved a mark on this answer since the `revision` this one was based on; nothing was written.
   * `details.current` is the mark there now (lib/server/grading/save-grade.ts).
   */
  GRADE_CONFLICT: 409,
  SAME_MARKER: 409,
  /** The late answer was already accepted or rejected; `details.decision` is that decision. Nothing changed. */
  LATE_ANSWER_DECIDED: 409,
  /** The exam cannot move to that status from its current one; `details.from`, `details.to`, `details.reason`. */
  STATUS_TRANSITION_REFUSED: 409,
  /** Candidates have started this exam, so it cannot be deleted (close or archive it instead). */
  EXAM_HAS_ATTEMPTS: 409,
  /**
   * Candidates have started this exam, so its questions cannot be added, removed or reordered, nor their type
   * or options changed; prompts, option labels, keys and points can still be corrected. `details.problems`.
   */
  QUESTIONS_LOCKED: 409,
  /**
   * A person has marked an answer of this exam, so double marking cannot be turned on or off: the marks given
   * were given under the other rule (docs/results.md, "Exam settings for results"). Nothing changed.
   */
  SECOND_MARKING_LOCKED: 409,
  /** The webhook delivery is pending or already delivered, so there is nothing to send again. Nothing changed. */
  DELIVERY_NOT_RETRYABLE: 409,
  /** The webhook delivery is no longer pending (delivered, dead or cancelled), so it cannot be cancelled. */
  DELIVERY_NOT_CANCELLABLE: 409,
  /** The same submit is still being processed; retry after `Retry-After` seconds. */
  REQUEST_IN_PROGRESS: 409,
  /** The body exceeds the request size limit. */
  PAYLOAD_TOO_LARGE: 413,
  /** The request was the wrong media type. */
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** Fields are invalid; `details.issues` lists each with its path. Nothing was changed. */
  VALIDATION_FAILED: 422,
  /** The exam cannot be published as it is; `details.problems` lists every reason (lib/shared/exam-lifecycle.ts). */
  PUBLISH_CHECK_FAILED: 422,
  /**
   * An uploaded QTI package cannot be read at all (not a zip, over a cap, no manifest, invalid XML, a DOCTYPE,
   * a path leaving the package); `details.reason` (lib/shared/schemas/qti.ts) and `details.file`. Nothing written.
   */
  QTI_PACKAGE_INVALID: 422,
  /**
   * Some items of a QTI package cannot become questions (an unsupported interaction, say); `details` is the
   * whole preview. Nothing was written: send `skipUnsupported=1` to import the others.
   */
  QTI_ITEMS_UNSUPPORTED: 422,
  /** The Idempotency-Key was used before with a different body. */
  IDEMPOTENCY_KEY_REUSED: 422,
  /** The chosen password breaks the policy (lib/shared/password-policy.ts); `details.reason` says how. */
  WEAK_PASSWORD: 422,
  /** Changing one's password needs the current one, and it did not match. Nothing was changed. */
  CURRENT_PASSWORD_INCORRECT: 422,
  /** Another staff account already has this email. */
  STAFF_EMAIL_TAKEN: 409,
  /** Another candidate of this exam already has this student number (`externalId`); nothing was enrolled. */
  EXTERNAL_ID_TAKEN: 409,
  /** Disabling this admin would leave no active admin. */
  LAST_ADMIN: 409,
  /** An admin cannot disable their own account (another admin can). */
  CANNOT_DISABLE_SELF: 409,
  /**
   * Someone changed this staff account (its password) since the caller looked; `details` has the current
   * account. Reload and decide again.
   */
  STAFF_CHANGED: 409,
  /** Too many requests; retry after `Retry-After` seconds. Your work is safe on your device. */
  RATE_LIMITED: 429,
  /** Too many sign-in attempts for this email or from this address; retry after `Retry-After` seconds. */
  TOO_MANY_SIGN_INS: 429,
  /** Something broke on our side. Never echoes internals. */
  INTERNAL: 500,
  /**
   * A dependency the request needs (the database) is unavailable, or it ended this request's transaction to
   * break a deadlock or a lock wait (rolled back); retry after `Retry-After` seconds.
   */
  UNAVAILABLE: 503,
  /**
   * This instance is saturated (too many requests in progress, or its event loop lagging) and refused the
   * request before reading it: nothing happened. Retry after `Retry-After` seconds; your work is safe on your device.
   */
  OVERLOADED: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export type ErrorIssue = { path: string; message: string };

export type ErrorBody = {
  error: {
    code: ErrorCode;
    message: string;
    details?: Record<string, unknown>;
  };
};

/**
 * Marks an AppError whichever copy of this module made it. Next.js bundles the instrumentation hook, each route
 * and each page separately, so one process can hold several copies of this class; an error made by one copy (an
 * object created in the instrumentation bundle, then used by a route) must still be an AppError to the route's
 * error mapping, or a 503 becomes a 500.
 */
const APP_ERROR_BRAND = Symbol.for("holdfast.AppError");

/** The one error type of the app. Thrown anywhere on the server, turned into a response in one place. */
export class AppError extends Error {
  static override [Symbol.hasInstance](value: unknown): value is AppError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[APP_ERROR_BRAND] === true;
  }

  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
  readonly [APP_ERROR_BRAND] = true;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.details = options.details;
    this.headers = options.headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): ErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details ? { details: this.details } : {}),
      },
    };
  }
}

export function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === "object" &&
    value !== null &&
    "error" in value &&
    typeof (value as { error: unknown }).error === "object" &&
    (value as { error: { code?: unknown } }).error !== null &&
    typeof (value as { error: { code?: unknown } }).error.code === "string"
  );
}

/** zod issues as `{ path: "questions.2.options.0.id", message }`, the shape of `details.issues`. */
export function zodIssues(error: z.ZodError): ErrorIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "(body)",
    message: issue.message,
  }));
}

/**
 * 422 VALIDATION_FAILED for a zod error, every issue in `details.issues`. Operations that check a body
 * themselves (after the caller's scope, so another exam's id is a 404 whatever the body) throw this too.
 */
export function validationError(error: z.ZodError, where: "body" | "path" | "query" = "body"): AppError {
  const issues = zodIssues(error);
  const first = issues[0];
  const summary = first ? `${first.path}: ${first.message}` : "invalid input";
  return new AppError(
    "VALIDATION_FAILED",
    `Invalid ${where}: ${summary}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ""}.`,
    {
      details: { issues },
    },
  );
}
