import "server-only";

import { z } from "zod";

import { AppError, validationError } from "@/lib/shared/errors";

import { readCookie, SESSION_COOKIES } from "../auth/cookies";
import {
  findCandidateSession,
  findStaffSession,
  type ApiTokenPrincipal,
  type CandidatePrincipal,
  type StaffPrincipal,
} from "../auth/sessions";
import { safeEqual } from "../crypto";
import { env } from "../env.mjs";
import { noteRequestExam } from "../exam-health/request-exam";
import { errorResponse } from "./errors";
import { readJsonBody } from "./read-json-body";

/**
 * Who may call a route:
 * - `public`: anyone;
 * - `candidate`: a candidate session (join link);
 * - `staff`: any signed-in staff member;
 * - `admin`: an admin session or `Authorization: Bearer $ADMIN_API_TOKEN`;
 * - `proctor`: a proctor or admin session, or the bearer token. Which exams a proctor may see is
 *   decided by the operation's query, so another exam's id answers 404.
 * - `operator`: anyone while METRICS_TOKEN is unset; once it is set, `Bearer $METRICS_TOKEN`, or what
 *   `proctor` accepts.
 */
export type Access = "public" | "candidate" | "staff" | "admin" | "proctor" | "operator";

type PrincipalFor<A extends Access> = A extends "public"
  ? null
  : A extends "candidate"
    ? CandidatePrincipal
    : A extends "staff"
      ? StaffPrincipal
      : A extends "operator"
        ? StaffPrincipal | ApiTokenPrincipal | null
        : StaffPrincipal | ApiTokenPrincipal;

type RouteConfig<A extends Access, B extends z.ZodType | undefined, P extends z.ZodType | undefined> = {
  access: A;
  body?: B;
  params?: P;
};

export type HandlerContext<A extends Access, B extends z.ZodType | undefined, P extends z.ZodType | undefined> = {
  request: Request;
  principal: PrincipalFor<A>;
  body: B extends z.ZodType ? z.output<B> : undefined;
  params: P extends z.ZodType ? z.output<P> : Record<string, never>;
};

type NextRouteContext = { params: Promise<unknown> };

function bearerToken(request: Request): string | undefined {
  const header = request.headers.get("authorization");
  const match = header?.match(/^Bearer\s+(.+)$/i);
  return match?.[1]?.trim();
}

async function resolvePrincipal(request: Request, access: Access): Promise<unknown> {
  if (access === "public") return null;
  if (access === "operator") {
    if (!env.METRICS_TOKEN) return null;
    const bearer = bearerToken(request);
    if (bearer !== undefined && safeEqual(bearer, env.METRICS_TOKEN)) return null;
    return resolvePrincipal(request, "proctor");
  }

  if (access === "candidate") {
    const principal = await findCandidateSession(readCookie(request, SESSION_COOKIES.candidate));
    if (!principal) throw new AppError("UNAUTHENTICATED", "Open your personal join link to start a session.");
    return principal;
  }

  const bearer = bearerToken(request);
  if (bearer !== undefined) {
    if ((access === "admin" || access === "proctor") && env.ADMIN_API_TOKEN && safeEqual(bearer, env.ADMIN_API_TOKEN)) {
      return { kind: "api-token" } satisfies ApiTokenPrincipal;
    }
    throw new AppError("UNAUTHENTICATED", "The bearer token is not valid.");
  }

  const staff = await findStaffSession(readCookie(request, SESSION_COOKIES.staff));
  if (!staff) throw new AppError("UNAUTHENTICATED", "Sign in first.");
  if (access === "admin" && staff.role !== "admin") {
    throw new AppError("FORBIDDEN", "Only admins may do this.");
  }
  return staff;
}

/**
 * Wraps a route handler: resolves the session, checks the role, parses path params and the JSON body
 * with zod, and turns every thrown error into the one error body. Handlers only call an operation.
 */
export function route<A extends Access, B extends z.ZodType | undefined = undefined, P extends z.ZodType | undefined = undefined>(
  config: RouteConfig<A, B, P>,
  handler: (context: HandlerContext<A, B, P>) => Promise<Response>,
): (request: Request, context: NextRouteContext) => Promise<Response> {
  return async (request, context) => {
    try {
      let params: unknown = {};
      if (config.params) {
        const parsed = config.params.safeParse(await context.params);
        // A path that cannot name a resource is a resource that does not exist.
        if (!parsed.success) throw new AppError("NOT_FOUND", "Not found.");
        params = parsed.data;
      }

      // Size and syntax are checked before authentication costs a database round trip on junk;
      // field validation comes after it, so an anonymous caller learns nothing about a protected schema.
      const raw = config.body ? await readJsonBody(request) : undefined;
      const principal = (await resolvePrincipal(request, config.access)) as PrincipalFor<A>;
      // For the per-exam request statistics (lib/server/exam-health): the exam is known from here on.
      if (config.access === "candidate") noteRequestExam(request, (principal as CandidatePrincipal).examId);

      let body: unknown = undefined;
      if (config.body) {
        if (raw === undefined) throw new AppError("BAD_REQUEST", "The request needs a JSON body.");
        const parsed = config.body.safeParse(raw);
        if (!parsed.success) throw validationError(parsed.error);
        body = parsed.data;
      }

      return await handler({
        request,
        principal,
        body: body as HandlerContext<A, B, P>["body"],
        params: params as HandlerContext<A, B, P>["params"],
      });
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/** A JSON response with the given status. */
export function json(data: unknown, init: { status?: number; headers?: HeadersInit } = {}): Response {
  return Response.json(data, { status: init.status ?? 200, headers: init.headers });
}
