import "server-only";

import { AppError } from "@/lib/shared/errors";

import { env } from "../env.mjs";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const STAFF_API = /^\/api\/(admin|proctor|staff)(\/|$)/;

/**
 * Whether a request's `Origin` is this app: the origin of APP_URL, or the host the request was sent to (the
 * `Host` header, so a deployment reached by another name than APP_URL still works). A browser sends
 * `Origin` on every cross-site POST, PUT, PATCH and DELETE (fetch, forms and uploads alike), and it cannot
 * be set by a page, so a mismatch is another site acting with the staff member's cookies.
 */
export function isSameOrigin(request: Request, origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (sandboxed frames, some redirects) and garbage are never ours
  }
  if (url.origin === new URL(env.APP_URL).origin) return true;
  const host = request.headers.get("host");
  return host !== null && url.host === host.toLowerCase();
}

/**
 * Refuses (403 CROSS_ORIGIN) a state-changing request to a staff API path whose `Origin` header names another
 * site. This stands beside the SameSite=Lax cookies, which a same-site attacker (another app on a sibling
 * subdomain) and older browsers get around. Requests without `Origin` (scripts, curl with the bearer
 * token, server-to-server) pass: only browsers send it, and every browser sends it where it matters.
 */
export function assertSameOriginStaffRequest(request: Request): void {
  if (!STATE_CHANGING.has(request.method)) return;
  const origin = request.headers.get("origin");
  if (origin === null) return;
  if (!STAFF_API.test(new URL(request.url).pathname)) return;
  if (isSameOrigin(request, origin)) return;
  throw new AppError("CROSS_ORIGIN", "Requests from another site may not change anything here.");
}
