import { clearedSessionCookie } from "@/lib/server/auth/cookies";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { route } from "@/lib/server/http/route";
import { endAllStaffSessions } from "@/lib/server/staff/end-all-staff-sessions";

/** "Sign out everywhere": every session of the caller ends, this one included. */
export const DELETE = route(
  {
    access: "staff",
    allowsPendingPasswordChange: true,
    doc: {
      operationId: "signOutEverywhere",
      area: "sessions",
      summary: "Sign out everywhere",
      description: "Every session of the caller ends, this one included.",
      responses: { 204: { description: "Signed out everywhere", headers: { "Set-Cookie": "clears the cookie" } } },
    },
  },
  async ({ principal, request }) => {
    await endAllStaffSessions({ staff: principal });
    return new Response(null, { status: 204, headers: { "Set-Cookie": clearedSessionCookie("staff", request) } });
  },
);

export const { GET, POST, PUT, PATCH, OPTIONS } = methodsNotAllowed("DELETE");
