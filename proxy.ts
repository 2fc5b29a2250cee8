import { NextResponse, type NextRequest } from "next/server";

import { AppError } from "@/lib/shared/errors";

/**
 * A path whose percent-encoding does not decode (`%ZZ`, `%C0%AF`) makes Next.js fail while it matches a
 * dynamic segment, before any route runs, with a bare "Internal Server Error" 500. Such a path names
 * nothing: an API path gets the one 404 error body, a join link lands on the page that says the link is
 * not valid. Only paths with a `%` in them come here (`config.matcher`); every other request skips this.
 */
export function proxy(request: NextRequest): Response {
  const { pathname } = request.nextUrl;
  try {
    decodeURIComponent(pathname);
    return NextResponse.next();
  } catch {
    if (pathname.startsWith("/join/")) {
      // A proxy's redirect needs an absolute URL (the join route itself answers with a relative one).
      const response = NextResponse.redirect(new URL("/join-problem?reason=invalid", request.nextUrl), 303);
      response.headers.set("Cache-Control", "no-store");
      return response;
    }
    return Response.json(new AppError("NOT_FOUND", "Not found.").toBody(), { status: 404 });
  }
}

export const config = { matcher: ["/(.*%.*)"] };
