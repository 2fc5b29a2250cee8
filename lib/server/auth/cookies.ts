import "server-only";

import { env } from "../env.mjs";

/** Staff and candidate sessions use separate cookies, so an admin can try a join link in the same browser. */
export const SESSION_COOKIES = {
  staff: "holdfast_staff",
  candidate: "holdfast_candidate",
} as const;
export type SessionCookieKind = keyof typeof SESSION_COOKIES;

export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index === -1) continue;
    if (part.slice(0, index).trim() === name) {
      const raw = part.slice(index + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * Whether the browser reached us over HTTPS: COOKIE_SECURE (or an https APP_URL), the request's own scheme, or
 * the last `X-Forwarded-Proto` entry a TLS-terminating proxy wrote. A client that claims https without one only
 * makes its own cookie stricter.
 */
export function isHttpsRequest(request: Request): boolean {
  if (env.COOKIE_SECURE) return true;
  if (new URL(request.url).protocol === "https:") return true;
  const forwarded = request.headers.get("x-forwarded-proto")?.split(",").at(-1)?.trim().toLowerCase();
  return forwarded === "https";
}

/**
 * A session cookie: HttpOnly (no script reads it), SameSite=Lax (not sent on another site's POST; Lax, not
 * Strict, so following a join link or a bookmark from mail arrives signed in), Path=/, and Secure whenever
 * the request came over HTTPS.
 */
export function sessionCookie(kind: SessionCookieKind, token: string, expiresAt: Date, request: Request): string {
  const parts = [
    `${SESSION_COOKIES[kind]}=${encodeURIComponent(token)}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Expires=${expiresAt.toUTCString()}`,
  ];
  if (isHttpsRequest(request)) parts.push("Secure");
  return parts.join("; ");
}

export function clearedSessionCookie(kind: SessionCookieKind, request: Request): string {
  const parts = [`${SESSION_COOKIES[kind]}=`, "Path=/", "HttpOnly", "SameSite=Lax", "Max-Age=0"];
  if (isHttpsRequest(request)) parts.push("Secure");
  return parts.join("; ");
}
