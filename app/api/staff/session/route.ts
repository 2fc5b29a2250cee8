import { clearedSessionCookie, readCookie, SESSION_COOKIES, sessionCookie } from "@/lib/server/auth/cookies";
import { deleteSessionByToken } from "@/lib/server/auth/sessions";
import { json, route } from "@/lib/server/http/route";
import { signInStaff } from "@/lib/server/staff/sign-in-staff";
import { StaffSignInSchema } from "@/lib/shared/schemas/auth";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";

/** Staff sign-in: email + password -> a fresh (rotated) session cookie. */
export const POST = route({ access: "public", body: StaffSignInSchema }, async ({ body, request }) => {
  const session = await signInStaff({
    input: body,
    previousToken: readCookie(request, SESSION_COOKIES.staff),
    userAgent: request.headers.get("user-agent"),
  });
  return json(
    { role: session.role, expiresAt: session.expiresAt.toISOString() },
    { headers: { "Set-Cookie": sessionCookie("staff", session.token, session.expiresAt) } },
  );
});

/** Sign-out kills the session on the server, not just the cookie. */
export const DELETE = route({ access: "public" }, async ({ request }) => {
  const token = readCookie(request, SESSION_COOKIES.staff);
  if (token) await deleteSessionByToken(token);
  return new Response(null, { status: 204, headers: { "Set-Cookie": clearedSessionCookie("staff") } });
});

export const { GET, PUT, PATCH, OPTIONS } = methodsNotAllowed("POST", "DELETE");
