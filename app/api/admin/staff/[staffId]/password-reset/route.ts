import { actorOf } from "@/lib/server/auth/actor";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { resetStaffPassword } from "@/lib/server/staff/reset-staff-password";
import { StaffWithPasswordSchema } from "@/lib/shared/schemas/responses/staff";
import { ResetStaffPasswordSchema, StaffParamsSchema } from "@/lib/shared/schemas/staff";

/** A new temporary password (in this response only); the account's sessions end. */
export const POST = route(
  {
    access: "admin",
    params: StaffParamsSchema,
    body: ResetStaffPasswordSchema,
    isBodyOptional: true,
    doc: {
      operationId: "resetStaffPassword",
      area: "admin",
      summary: "Give a staff member a new temporary password",
      description:
        "The account's sessions end. With `passwordChangedAt` (from the list), a password changed since is 409 " +
        "STAFF_CHANGED and nothing happens. The body may be empty.",
      responses: { 200: { description: "The account and its temporary password", schema: StaffWithPasswordSchema } },
      errors: ["STAFF_CHANGED"],
    },
  },
  async ({ params, body, principal }) => {
    const reset = await resetStaffPassword({
      staffUserId: params.staffId,
      expectedPasswordChangedAt: body?.passwordChangedAt,
      actor: actorOf(principal),
    });
    return json(reset);
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
