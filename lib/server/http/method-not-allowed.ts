import "server-only";

import { AppError } from "@/lib/shared/errors";

import { errorResponse } from "./errors";

/** The methods a route can lack; HEAD and OPTIONS are Next.js's own (from GET, and the list of exports). */
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/**
 * Handlers for the methods a route does not have. Left alone, Next.js answers them with a bare 405 and no
 * body; a route spreads these into its exports so the answer is the one JSON error body, with `Allow`.
 * OPTIONS comes along: Next.js's own would list these handlers as allowed methods.
 *
 *   export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
 */
export function methodsNotAllowed<const A extends Method>(
  ...allowed: A[]
): Record<Exclude<Method, A> | "OPTIONS", () => Response> {
  const allow = allowed.join(", ");
  const handler = (): Response =>
    errorResponse(new AppError("METHOD_NOT_ALLOWED", `This path takes ${allow} only.`, { headers: { Allow: allow } }));
  const withImplicit = [...allowed, ...((allowed as Method[]).includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const options = (): Response => new Response(null, { status: 204, headers: { Allow: withImplicit } });
  const missing = METHODS.filter((method) => !(allowed as Method[]).includes(method));
  return Object.fromEntries([
    ...missing.map((method) => [method, handler] as const),
    ["OPTIONS", options] as const,
  ]) as Record<Exclude<Method, A> | "OPTIONS", () => Response>;
}
