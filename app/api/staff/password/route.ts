import { changeOwnPassword } from "@/lib/server/staff/change-own-password";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { route } from "@/lib/server/http/route";
import { ChangePasswordSchema } from "@/lib/shared/schemas/staff";

/** A staff member changes their own password (also the way out of a temporary one). Other sessions end. */
export const PUT = route(
  { access: "staff", body: ChangePasswordSchema, allowsPendingPasswordChange: true },
  async ({ body, principal }) => {
    await changeOwnPassword({ staff: principal, currentPassword: body.currentPassword, newPassword: body.newPassword });
    return new Response(null, { status: 204 });
  },
);

export const { GET, POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed("PUT");
