import "server-only";

/**
 * Which exam a request is for, known once its candidate session is resolved. The request wrapper
 * (`route()`) resolves the session anyway, and a candidate's session names its enrollment's exam; an attempt
 * id only reaches an operation through that enrollment, so the session's exam is the attempt's exam. Noting
 * it here, keyed by the Request object, lets `observeSyncRequest` (which wraps `route()` and sees only the
 * request and the response) count the request for its exam with no database query and no Redis round trip.
 * A WeakMap: the entry goes with the request, so nothing needs bounding or clearing.
 */
const examOfRequest = new WeakMap<Request, string>();

export function noteRequestExam(request: Request, examId: string): void {
  examOfRequest.set(request, examId);
}

/** The exam noted for this request, or undefined (no candidate session: a 401, or a staff route). */
export function requestExamOf(request: Request): string | undefined {
  return examOfRequest.get(request);
}
