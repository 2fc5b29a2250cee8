import { clearedSessionCookie, readCookie, SESSION_COOKIES, sessionCookie } from "@/lib/server/auth/cookies";
import { deleteSessionByToken } from "@/lib/server/auth/sessions";
import { clientAddress } from "@/lib/server/http/client-address";
import { json, route } from "@/lib/server/http/route";
import { signInStaff } from "@/lib/server/staff/sign-in-staff";
import { StaffSignInSchema } from "@/lib/shared/schemas/auth";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";

/**
 * Staff sign-in: email + password -> a fresh (rotated) session cookie. Failures are limited per (email,
 * address) pair, per address and per email (429 TOO_MANY_SIGN_INS with Retry-After; sign-in-limiters.ts). `mustChangePassword`: the password was an admin's temporary one, and
 * every other page and route refuses until the member chooses their own (PUT /api/staff/password).
 */
export const POST = route({ access: "public", body: StaffSignInSchema }, async ({ body, request }) => {
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
});

/** Sign-out kills the session on the server, not just the cookie. */
export const DELETE = route({ access: "public" }, async ({ request }) => {
  const token = readCookie(request, SESSION_COOKIES.staff);
  if (token) await deleteSessionByToken(token);
  return new Response(null, { status: 204, headers: { "Set-Cookie": clearedSessionCookie("staff", request) } });
});

export const { GET, PUT, PATCH, OPTIONS } = methodsNotAllowed("POST", "DELETE");
