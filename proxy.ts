import { NextResponse, type NextRequest } from "next/server";

import { env } from "@/lib/server/env.mjs";
import { newNonce, pageContentSecurityPolicy } from "@/lib/server/http/content-security-policy";
import { AppError } from "@/lib/shared/errors";
import { REQUEST_PATH_HEADER } from "@/lib/shared/request-path";

/**
 * Two jobs, for the requests `config.matcher` lets in:
 *
 * 1. A path whose percent-encoding does not decode (`%ZZ`, `%C0%AF`) makes Next.js fail while it matches a
 *    dynamic segment, before any route runs, with a bare "Internal Server Error" 500. Such a path names
 *    nothing: an API path gets the one 404 error body, a join link lands on the page that says the link is
 *    not valid. Every path with a `%` in it comes here.
 * 2. A page gets its Content-Security-Policy, with a nonce made for this response (docs/security.md, "Browser
 *    protections"), and its server components the path asked for (`REQUEST_PATH_HEADER`, for a way back after
 *    sign-in from a layout). Next.js reads the nonce from the request's copy of the header and stamps it on the
 *    scripts it renders. Responses that are not pages (the API, built assets, the service worker, the icon)
 *    keep next.config.mjs's static policy, and so do `next/link` prefetches: their RSC payload is no document.
 */
export function proxy(request: NextRequest): Response {
  const { pathname } = request.nextUrl;
  try {
    decodeURIComponent(pathname);
  } catch {
    if (pathname.startsWith("/join/")) {
      // A proxy's redirect needs an absolute URL (the join route itself answers with a relative one).
      const response = NextResponse.redirect(new URL("/join-problem?reason=invalid", request.nextUrl), 303);
      response.headers.set("Cache-Control", "no-store");
      return response;
    }
    return Response.json(new AppError("NOT_FOUND", "Not found.").toBody(), { status: 404 });
  }
  if (NOT_A_PAGE.test(pathname)) return NextResponse.next();

  const policy = pageContentSecurityPolicy(newNonce(), { isDevelopment: env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("Content-Security-Policy", policy);
  requestHeaders.set(REQUEST_PATH_HEADER, `${pathname}${request.nextUrl.search}`);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  // Replaces the static policy of next.config.mjs on this response: one policy, not two enforced together.
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

/** What the second matcher leaves out; a path with a `%` reaches the proxy whatever it is. */
const NOT_A_PAGE = /^\/(api\/|_next\/|sw\.js$|favicon)/;

export const config = {
  matcher: [
    "/(.*%.*)",
    {
      source: "/((?!api/|_next/|sw\\.js$|favicon).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
