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

export function sessionCookie(kind: SessionCookieKind, token: string, expiresAt: Date): string {
  const parts = [
    `${SESSION_COOKIES[kind]}=${encodeURIComponent(token)}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Expires=${expiresAt.toUTCString()}`,
  ];
  if (env.COOKIE_SECURE) parts.push("Secure");
  return parts.join("; ");
}

export function clearedSessionCookie(kind: SessionCookieKind): string {
  const parts = [`${SESSION_COOKIES[kind]}=`, "Path=/", "HttpOnly", "SameSite=Lax", "Max-Age=0"];
  if (env.COOKIE_SECURE) parts.push("Secure");
  return parts.join("; ");
}
