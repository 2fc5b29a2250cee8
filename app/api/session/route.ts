import { clearedSessionCookie, readCookie, SESSION_COOKIES, sessionCookie } from "@/lib/server/auth/cookies";
import { deleteSessionByToken } from "@/lib/server/auth/sessions";
import { redeemJoinToken } from "@/lib/server/enrollments/redeem-join-token";
import { json, route } from "@/lib/server/http/route";
import { JoinSessionSchema } from "@/lib/shared/schemas/auth";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";

/** Exchanges a join token for a candidate session cookie (the JSON twin of GET /join/{token}). */
export const POST = route({ access: "public", body: JoinSessionSchema }, async ({ body, request }) => {
  const joined = await redeemJoinToken({ joinToken: body.joinToken, userAgent: request.headers.get("user-agent") });
  return json(
    { examId: joined.examId, enrollmentId: joined.enrollmentId, expiresAt: joined.expiresAt.toISOString() },
    { headers: { "Set-Cookie": sessionCookie("candidate", joined.token, joined.expiresAt, request) } },
  );
});

/** Ends this device's candidate session. */
export const DELETE = route({ access: "public" }, async ({ request }) => {
  const token = readCookie(request, SESSION_COOKIES.candidate);
  if (token) await deleteSessionByToken(token);
  return new Response(null, { status: 204, headers: { "Set-Cookie": clearedSessionCookie("candidate", request) } });
});

export const { GET, PUT, PATCH, OPTIONS } = methodsNotAllowed("POST", "DELETE");
