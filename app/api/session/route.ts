import { SESSION_COOKIES, clearedSessionCookie, readCookie, sessionCookie } from "@/lib/server/auth/cookies";
import { deleteSessionByToken } from "@/lib/server/auth/sessions";
import { redeemJoinToken } from "@/lib/server/enrollments/redeem-join-token";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { JoinSessionSchema } from "@/lib/shared/schemas/auth";
import { CandidateSessionSchema } from "@/lib/shared/schemas/responses/staff";

/** Exchanges a join token for a candidate session cookie (the JSON twin of GET /join/{token}). */
export const POST = route(
  {
    access: "public",
    body: JoinSessionSchema,
    doc: {
      operationId: "joinSession",
      area: "sessions",
      summary: "Exchange a join token for a candidate session",
      description: "The JSON twin of GET /join/{token}: sets the candidate session cookie.",
      responses: {
        200: {
          description: "Signed in",
          schema: CandidateSessionSchema,
          headers: { "Set-Cookie": "the candidate session cookie" },
        },
      },
      errors: ["NOT_FOUND", "EXAM_CLOSED"],
    },
  },
  async ({ body, request }) => {
    const joined = await redeemJoinToken({ joinToken: body.joinToken, userAgent: request.headers.get("user-agent") });
    return json(
      { examId: joined.examId, enrollmentId: joined.enrollmentId, expiresAt: joined.expiresAt.toISOString() },
      { headers: { "Set-Cookie": sessionCookie("candidate", joined.token, joined.expiresAt, request) } },
    );
  },
);

/** Ends this device's candidate session. */
export const DELETE = route(
  {
    access: "public",
    doc: {
      operationId: "leaveSession",
      area: "sessions",
      summary: "End this device's candidate session",
      responses: { 204: { description: "Signed out", headers: { "Set-Cookie": "clears the cookie" } } },
    },
  },
  async ({ request }) => {
    const token = readCookie(request, SESSION_COOKIES.candidate);
    if (token) await deleteSessionByToken(token);
    return new Response(null, { status: 204, headers: { "Set-Cookie": clearedSessionCookie("candidate", request) } });
  },
);

export const { GET, PUT, PATCH, OPTIONS } = methodsNotAllowed("POST", "DELETE");
