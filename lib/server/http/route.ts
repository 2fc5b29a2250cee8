import "server-only";

import { z } from "zod";

import { AppError, validationError } from "@/lib/shared/errors";
import { LIMITS } from "@/lib/shared/limits";

import { readCookie, SESSION_COOKIES } from "../auth/cookies";
import { isAssignedGrader } from "../auth/is-assigned-grader";
import {
  candidateUnauthenticated,
  findCandidateSession,
  findStaffSession,
  forgetCandidateSession,
  recallCandidateSession,
  type ApiTokenPrincipal,
  type CandidatePrincipal,
  type StaffPrincipal,
} from "../auth/sessions";
import { safeEqual } from "../crypto";
import { env } from "../env.mjs";
import { acceptsUntilOf } from "../limits/accepts-until";
import { admission, type AdmissionKind } from "../limits/admission";
import { consumeSyncCapacity, type SyncLimit } from "../limits/consume-sync-capacity";
import type { SyncEndpoint } from "../metrics/registry";
import { observeSyncRequest } from "../request-stats/observe-sync-request";
import { appErrorResponse, toAppError } from "./errors";
import { jsonResponse, jsonTextResponse } from "./json-response";
import type { RouteDoc } from "./route-doc";
import { isCsvMediaType, isZipMediaType, readBodyBytes, readCsvBody, readJsonBody } from "./read-json-body";
import { assertSameOriginStaffRequest } from "./same-origin";

/**
 * Who may call a route:
 * - `public`: anyone;
 * - `candidate`: a candidate session (join link);
 * - `staff`: any signed-in staff member;
 * - `admin`: an admin session or `Authorization: Bearer $ADMIN_API_TOKEN`;
 * - `proctor`: a proctor or admin session, or the bearer token (a grader is refused: 403). Which exams a
 *   proctor may see is decided by the operation's query, so another exam's id answers 404.
 * - `grader`: an admin session, the bearer token, or a grader assigned to the exam named by the path's
 *   `examId` (anyone else, a proctor included, is 403). The route's `params` must carry `examId`.
 * - `operator`: anyone while METRICS_TOKEN is unset; once it is set, `Bearer $METRICS_TOKEN`, or what
 *   `admin` accepts (not a proctor or grader: the per-exam gauges name every active exam, theirs or not).
 */
export type Access = "public" | "candidate" | "staff" | "admin" | "proctor" | "grader" | "operator";

type PrincipalFor<A extends Access> = A extends "public"
  ? null
  : A extends "candidate"
    ? CandidatePrincipal
    : A extends "staff"
      ? StaffPrincipal
      : A extends "operator"
        ? StaffPrincipal | ApiTokenPrincipal | null
        : StaffPrincipal | ApiTokenPrincipal;

type RouteConfig<
  A extends Access,
  B extends z.ZodType | undefined,
  P extends z.ZodType | undefined,
  C extends boolean = false,
> = {
  access: A;
  /** The path params' schema; a path that does not parse is 404. */
  params?: P;
  /**
   * The JSON body's schema. Every body is read the same way, here (readJsonBody: size cap, UTF-8, JSON,
   * Content-Type) before the session is looked up, and checked against the schema after it (422). A
   * request without a body is 400, unless `isBodyOptional` (then the handler gets `undefined`). An
   * operation that must check the caller's scope before the fields (another exam's id is a 404 whatever
   * the body) takes `z.unknown()` here and parses the body itself.
   */
  body?: B;
  isBodyOptional?: boolean;
  /**
   * The route also takes a `text/csv` body: read like a JSON body (size cap, drained refusal, UTF-8 or
   * 400), its byte order mark dropped, and handed to the handler as `csv` — then `body` is `undefined`
   * and the schema is not applied; the operation checks the file line by line itself.
   */
  csv?: C;
  /**
   * The route also takes an `application/zip` body (a QTI package): its bytes, capped at
   * `LIMITS.maxQtiPackageBytes` with the same drained refusal, handed to the handler as `zip`.
   */
  zip?: boolean;
  /**
   * A staff member whose password an admin set may call this route before choosing their own (changing it,
   * reading who they are, signing out). Every other route answers 403 PASSWORD_CHANGE_REQUIRED for them.
   */
  allowsPendingPasswordChange?: boolean;
  /**
   * The operation checks the candidate's session in its own statement (the autosave's one statement:
   * apply-answer-delta.sql), so a session this process already knows is not read first: the principal comes
   * with `sessionCheck` (sessions.ts) and the operation confirms it or answers 401. Any failure before it did
   * reads the session here first, so a signed-out or revoked session is a 401 before any other error, as
   * everywhere else (docs/decisions/021-candidate-sync-checks-its-session-in-its-statement.md).
   */
  foldsSessionCheck?: A extends "candidate" ? boolean : never;
  /**
   * A sync request with a rate limit of its own (lib/server/limits): one point from the candidate's budget
   * and the cluster's, taken once the body is valid and before the handler runs; 429 RATE_LIMITED when spent.
   */
  limit?: A extends "candidate" ? SyncLimit : never;
  /**
   * Count and time every request, whatever its outcome, for the metrics and the exam's health
   * (lib/server/request-stats/observe-sync-request.ts).
   */
  observe?: SyncEndpoint;
  /**
   * The request's kind for admission control (lib/server/limits/admission.ts): with `limit`, that kind;
   * otherwise `other`. A `submit` (the candidate's, and a proctor's force-submit, which says so) is never refused
   * for load: its handler waits its turn in the submit queue (lib/server/limits/submit-queue.ts).
   */
  admission?: AdmissionKind;
  /**
   * The operation's documentation (summary, tags, responses, examples): /api/openapi.json is generated from
   * it and the rest of this config (route-doc.ts). Every route under app/api has one (lib/server/openapi).
   */
  doc?: RouteDoc;
};

export type HandlerContext<
  A extends Access,
  B extends z.ZodType | undefined,
  P extends z.ZodType | undefined,
  C extends boolean = false,
> = {
  request: Request;
  principal: PrincipalFor<A>;
  body: B extends z.ZodType ? (C extends true ? z.output<B> | undefined : z.output<B>) : undefined;
  /** With `csv: true`: the text of a `text/csv` body ("" when empty); otherwise `undefined`. */
  csv: C extends true ? string | undefined : undefined;
  /** With `zip: true`: the bytes of an `application/zip` body; otherwise `undefined`. */
  zip: Uint8Array | undefined;
  params: P extends z.ZodType ? z.output<P> : Record<string, never>;
};

type NextRouteContext = { params: Promise<unknown> };

function bearerToken(request: Request): string | undefined {
  const header = request.headers.get("authorization");
  const match = header?.match(/^Bearer\s+(.+)$/i);
  return match?.[1]?.trim();
}

async function resolvePrincipal(
  request: Request,
  access: Access,
  allowsPendingPasswordChange = false,
  params: unknown = {},
  foldsSessionCheck = false,
): Promise<unknown> {
  if (access === "public") return null;
  if (access === "operator") {
    if (!env.METRICS_TOKEN) return null;
    const bearer = bearerToken(request);
    if (bearer !== undefined && safeEqual(bearer, env.METRICS_TOKEN)) return null;
    return resolvePrincipal(request, "admin", allowsPendingPasswordChange);
  }

  if (access === "candidate") {
    const token = readCookie(request, SESSION_COOKIES.candidate);
    const principal = foldsSessionCheck ? await recallCandidateSession(token) : await findCandidateSession(token);
    if (!principal) throw candidateUnauthenticated();
    return principal;
  }

  const bearer = bearerToken(request);
  if (bearer !== undefined) {
    if (
      (access === "admin" || access === "proctor" || access === "grader") &&
      env.ADMIN_API_TOKEN &&
      safeEqual(bearer, env.ADMIN_API_TOKEN)
    ) {
      return { kind: "api-token" } satisfies ApiTokenPrincipal;
    }
    throw new AppError("UNAUTHENTICATED", "The bearer token is not valid.");
  }

  const staff = await findStaffSession(readCookie(request, SESSION_COOKIES.staff));
  if (!staff) throw new AppError("UNAUTHENTICATED", "Sign in first.");
  if (staff.mustChangePassword && !allowsPendingPasswordChange) {
    throw new AppError("PASSWORD_CHANGE_REQUIRED", "Choose your own password first (PUT /api/staff/password).");
  }
  if (access === "admin" && staff.role !== "admin") {
    throw new AppError("FORBIDDEN", "Only admins may do this.");
  }
  if (access === "proctor" && staff.role === "grader") {
    throw new AppError("FORBIDDEN", "Graders mark papers; they do not proctor.");
  }
  if (access === "grader" && staff.role !== "admin") {
    const examId = (params as { examId?: unknown } | null)?.examId;
    const isAssigned =
      staff.role === "grader" &&
      typeof examId === "string" &&
      (await isAssignedGrader({ examId, staffUserId: staff.userId }));
    if (!isAssigned) throw new AppError("FORBIDDEN", "Only admins and this exam's graders may do this.");
  }
  return staff;
}

/**
 * With `foldsSessionCheck`, a request whose operation did not confirm the session (it failed before its statement,
 * or never ran): the session is read now, and a session that is not valid any more makes the answer a 401
 * whatever else went wrong. Null when the answer stands.
 */
async function unconfirmedSessionFailure(request: Request, principal: unknown): Promise<AppError | null> {
  const check = (principal as CandidatePrincipal | null)?.sessionCheck;
  if (!check || check.isConfirmed) return null;
  const current = await findCandidateSession(readCookie(request, SESSION_COOKIES.candidate));
  if (current) {
    check.isConfirmed = true;
    return null;
  }
  forgetCandidateSession(check.tokenHash);
  return candidateUnauthenticated();
}

/**
 * Wraps a route handler and owns the whole request:
 *
 * 0. Admission control (lib/server/limits/admission.ts): a saturated instance answers 503 OVERLOADED with
 *    `Retry-After` before anything is read or looked up; heartbeats are shed first. Submits are never refused for
 *    load: once checked like any request (1–4), the handler waits its turn in the submit queue.
 * 1. A state-changing staff request from another site is refused (same-origin.ts); then path params (404
 *    when they cannot name anything), then the body's size and syntax (readJsonBody), before
 *    authentication costs a database round trip on junk.
 * 2. The session and the role (401, 403), and a password that must be changed first (403). With
 *    `foldsSessionCheck`, a session this process knows is checked by the operation's statement instead, and
 *    re-read here if anything fails first (so 401 still comes before every later error).
 * 3. The body's fields (422): after authentication, so an anonymous caller learns nothing of a schema.
 * 4. The rate limit (`limit`), then the handler, which only calls an operation.
 * 5. Every thrown error becomes the one error body (errors.ts).
 * 6. With `observe`, the request is counted and timed with its outcome, its error code and its exam.
 */
export function route<
  A extends Access,
  B extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
  C extends boolean = false,
>(
  config: RouteConfig<A, B, P, C>,
  handler: (context: HandlerContext<A, B, P, C>) => Promise<Response>,
): (request: Request, context: NextRouteContext) => Promise<Response> {
  const wrapped = async (request: Request, context: NextRouteContext): Promise<Response> => {
    const started = performance.now();
    const rawParams: unknown =
      config.params || config.observe ? await context.params.catch(() => undefined) : undefined;
    let examId: string | undefined;
    let response: Response;
    let failure: AppError | undefined;
    let release: (() => void) | undefined;
    let principal: unknown = null;
    try {
      // 0.
      const kind = config.admission ?? config.limit ?? "other";
      if (kind !== "submit") release = admission().enter(kind);
      // 1.
      assertSameOriginStaffRequest(request);
      let params: unknown = {};
      if (config.params) {
        const parsed = config.params.safeParse(rawParams);
        if (!parsed.success) throw new AppError("NOT_FOUND", "Not found.");
        params = parsed.data;
      }
      const csv =
        config.csv && isCsvMediaType(request.headers.get("content-type")) ? await readCsvBody(request) : undefined;
      const zip =
        config.zip && isZipMediaType(request.headers.get("content-type"))
          ? ((await readBodyBytes(request, LIMITS.maxQtiPackageBytes)) ?? new Uint8Array())
          : undefined;
      const raw = config.body && csv === undefined && zip === undefined ? await readJsonBody(request) : undefined;

      // 2.
      principal = await resolvePrincipal(
        request,
        config.access,
        config.allowsPendingPasswordChange,
        params,
        config.foldsSessionCheck,
      );
      const candidate = config.access === "candidate" ? (principal as CandidatePrincipal) : null;
      examId = candidate?.examId;

      // 3.
      let body: unknown = undefined;
      if (config.body && csv === undefined && zip === undefined && (raw !== undefined || !config.isBodyOptional)) {
        if (raw === undefined) throw new AppError("BAD_REQUEST", "The request needs a JSON body.");
        const parsed = config.body.safeParse(raw);
        if (!parsed.success) throw validationError(parsed.error);
        body = parsed.data;
      }

      // 4.
      if (config.limit && candidate) await consumeSyncCapacity(config.limit, candidate.enrollmentId);
      const handle = () =>
        handler({
          request,
          principal: principal as PrincipalFor<A>,
          body: body as HandlerContext<A, B, P, C>["body"],
          csv: csv as HandlerContext<A, B, P, C>["csv"],
          zip,
          params: params as HandlerContext<A, B, P, C>["params"],
        });
      // 0, for a submit: its turn in the submit queue, which refuses it only if that turn would come after the
      // candidate's deadline + grace (as this process last saw the attempt); a proctor's has no such bound.
      if (kind === "submit") {
        const attemptId = candidate ? attemptIdOf(rawParams) : undefined;
        response = await admission().runSubmit(handle, {
          mustFinishBy: attemptId === undefined ? undefined : acceptsUntilOf(attemptId),
        });
      } else {
        response = await handle();
      }
      // 2, folded: an operation that answered without confirming the session (it never should) answers nothing.
      const unconfirmed = await unconfirmedSessionFailure(request, principal);
      if (unconfirmed) throw unconfirmed;
    } catch (error) {
      // 5.
      failure =
        (await unconfirmedSessionFailure(request, principal).catch(() => null)) ??
        toAppError(error, { operation: `${request.method} ${new URL(request.url).pathname}` });
      response = appErrorResponse(failure);
    } finally {
      release?.();
    }

    // 6.
    if (config.observe) {
      const requestId = failure?.details?.requestId;
      observeSyncRequest({
        endpoint: config.observe,
        response,
        errorCode: failure?.code,
        requestId: typeof requestId === "string" ? requestId : undefined,
        examId,
        attemptId: attemptIdOf(rawParams),
        seconds: (performance.now() - started) / 1000,
      });
    }
    return response;
  };
  ROUTE_CONFIGS.set(wrapped, config as AnyRouteConfig);
  return wrapped;
}

/**
 * The config each `route()` handler was made with: the OpenAPI document is generated from it
 * (lib/server/openapi/operations.ts), and the route/role table reads each route's access from it.
 */
const ROUTE_CONFIGS = new WeakMap<object, RouteConfig<Access, z.ZodType | undefined, z.ZodType | undefined>>();

export type AnyRouteConfig = RouteConfig<Access, z.ZodType | undefined, z.ZodType | undefined>;

/** The config of a handler made by `route()`, or undefined for anything else (a methodsNotAllowed stub). */
export function routeConfigOf(handler: unknown): AnyRouteConfig | undefined {
  return typeof handler === "function" ? ROUTE_CONFIGS.get(handler) : undefined;
}

function attemptIdOf(params: unknown): string | undefined {
  const value = (params as { attemptId?: unknown } | null | undefined)?.attemptId;
  return typeof value === "string" ? value : undefined;
}

/** A JSON response with the given status, from a value or from JSON text already written (json-response.ts: the one way the app answers JSON). */
export { jsonResponse as json, jsonTextResponse as jsonText };
