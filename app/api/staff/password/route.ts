import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { route } from "@/lib/server/http/route";
import { changeOwnPassword } from "@/lib/server/staff/change-own-password";
import { ChangePasswordSchema } from "@/lib/shared/schemas/staff";

/** A staff member changes their own password (also the way out of a temporary one). Other sessions end. */
export const PUT = route(
  {
    access: "staff",
    body: ChangePasswordSchema,
    allowsPendingPasswordChange: true,
    doc: {
      operationId: "changeOwnPassword",
      area: "sessions",
      summary: "Change one's own password",
      description:
        "Needs the current password; the new one must meet the policy (422 WEAK_PASSWORD, `details.reason`). " +
        "Also the way out of a temporary password. The member's other sessions end.",
      responses: { 204: { description: "Changed" } },
      errors: ["CURRENT_PASSWORD_INCORRECT", "WEAK_PASSWORD", "STAFF_CHANGED"],
    },
  },
  async ({ body, principal }) => {
    await changeOwnPassword({ staff: principal, currentPassword: body.currentPassword, newPassword: body.newPassword });
    return new Response(null, { status: 204 });
  },
);

export const { GET, POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed("PUT");
