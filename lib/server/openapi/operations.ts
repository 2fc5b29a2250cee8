import "server-only";

import type { z } from "zod";

import { routeConfigOf, type Access } from "../http/route";
import { API_AREAS, type RouteDoc } from "../http/route-doc";

export type ApiMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export const API_METHODS: readonly ApiMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** One route file's module and its OpenAPI path (app/api/route-modules.ts, written by scripts/api-index.mjs). */
export type RouteModule = { path: `/api/${string}`; module: object };

/**
 * One operation of the API, as the OpenAPI document (./build-document.ts), the staff's reference page (/admin/api)
 * and the route/role table (../security/route-table.ts) show it: the route's `doc`, and what its `route()` config
 * says of access, params and body. Nothing here is written twice: each fact is read from the one config.
 */
export type ApiOperation = Omit<RouteDoc, "checkedBody"> & {
  method: ApiMethod;
  /** OpenAPI path template: `/api/admin/exams/{examId}` for app/api/admin/exams/[examId]/route.ts. */
  path: `/api/${string}`;
  access: Access;
  params?: z.ZodObject;
  /** The body's schema: the route's, or the one the operation checks (`doc.checkedBody`). */
  body?: z.ZodType;
  isBodyOptional: boolean;
  /** A staff member with an admin's temporary password may call it (route()'s `allowsPendingPasswordChange`). */
  allowsPendingPasswordChange: boolean;
  /** A sync request with its own rate limit (route()'s `limit`): 429 RATE_LIMITED with Retry-After. */
  isRateLimited: boolean;
};

/**
 * The operations of the given route modules: each exported handler made by `route()`, with its config's `doc`.
 * A handler that is not (a methodsNotAllowed stub) is no operation. A route() handler without `doc` is an error:
 * the document would silently lack it (operations.test.ts walks every route file for the same reason).
 */
export function apiOperations(modules: readonly RouteModule[]): ApiOperation[] {
  const operations: ApiOperation[] = [];
  for (const { path, module } of modules) {
    for (const method of API_METHODS) {
      const config = routeConfigOf((module as Record<string, unknown>)[method]);
      if (!config) continue;
      const { doc } = config;
      if (!doc) throw new Error(`${method} ${path}: its route() config has no \`doc\` (docs/api.md)`);
      const { checkedBody, ...documented } = doc;
      operations.push({
        ...documented,
        method,
        path,
        access: config.access,
        params: config.params as z.ZodObject | undefined,
        body: checkedBody ?? config.body,
        isBodyOptional: Boolean(config.isBodyOptional),
        allowsPendingPasswordChange: Boolean(config.allowsPendingPasswordChange),
        isRateLimited: Boolean(config.limit),
      });
    }
  }
  return operations.sort(
    (a, b) =>
      API_AREAS.indexOf(a.area) - API_AREAS.indexOf(b.area) ||
      a.path.localeCompare(b.path) ||
      API_METHODS.indexOf(a.method) - API_METHODS.indexOf(b.method),
  );
}
