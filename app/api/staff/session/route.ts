import { SESSION_COOKIES, clearedSessionCookie, readCookie, sessionCookie } from "@/lib/server/auth/cookies";
import { deleteSessionByToken } from "@/lib/server/auth/sessions";
import { clientAddress } from "@/lib/server/http/client-address";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { signInStaff } from "@/lib/server/staff/sign-in-staff";
import { StaffSignInSchema } from "@/lib/shared/schemas/auth";
import { StaffSessionSchema } from "@/lib/shared/schemas/responses/staff";

/**
 * Staff sign-in: email + password -> a fresh (rotated) session cookie. Failures are limited per (email,
 * address) pair, per address and per email (429 TOO_MANY_SIGN_INS with Retry-After; sign-in-limiters.ts). `mustChangePassword`: the password was an admin's temporary one, and
 * every other page and route refuses until the member chooses their own (PUT /api/staff/password).
 */
export const POST = route(
  {
    access: "public",
    body: StaffSignInSchema,
    doc: {
      operationId: "signInStaff",
      area: "sessions",
      summary: "Staff sign-in",
      description: "Email and password for a fresh (rotated) staff session cookie.",
      responses: {
        200: {
          description: "Signed in",
          schema: StaffSessionSchema,
          headers: { "Set-Cookie": "the staff session cookie" },
        },
      },
      errors: ["UNAUTHENTICATED", "ACCOUNT_DISABLED", "TOO_MANY_SIGN_INS"],
    },
  },
  async ({ body, request }) => {
    const session = await signInStaff({
      input: body,
      address: clientAddress(request),
      previousToken: readCookie(request, SESSION_COOKIES.staff),
      userAgent: request.headers.get("user-agent"),
    });
    return json(
      {
        role: session.role,
        mustChangePassword: session.mustChangePassword,
        expiresAt: session.expiresAt.toISOString(),
      },
      { headers: { "Set-Cookie": sessionCookie("staff", session.token, session.expiresAt, request) } },
    );
  },
);

/** Sign-out kills the session on the server, not just the cookie. */
export const DELETE = route(
  {
    access: "public",
    doc: {
      operationId: "signOutStaff",
      area: "sessions",
      summary: "Staff sign-out",
      description: "Ends the session on the server, not just the cookie.",
      responses: { 204: { description: "Signed out", headers: { "Set-Cookie": "clears the cookie" } } },
    },
  },
  async ({ request }) => {
    const token = readCookie(request, SESSION_COOKIES.staff);
    if (token) await deleteSessionByToken(token);
    return new Response(null, { status: 204, headers: { "Set-Cookie": clearedSessionCookie("staff", request) } });
  },
);

export const { GET, PUT, PATCH, OPTIONS } = methodsNotAllowed("POST", "DELETE");
