import { actorOf } from "@/lib/server/auth/actor";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { setStaffDisabled } from "@/lib/server/staff/set-staff-disabled";
import { StaffAccountResponseSchema } from "@/lib/shared/schemas/responses/staff";
import { StaffParamsSchema, UpdateStaffSchema } from "@/lib/shared/schemas/staff";

/** `{ "disabled": true }` disables the account and ends its sessions at once; `false` enables it. */
export const PATCH = route(
  {
    access: "admin",
    params: StaffParamsSchema,
    body: UpdateStaffSchema,
    doc: {
      operationId: "updateStaff",
      area: "admin",
      summary: "Disable or enable a staff account",
      description:
        "Disabling ends the account's sessions at once. The last active admin, and oneself, cannot be disabled.",
      responses: { 200: { description: "The account", schema: StaffAccountResponseSchema } },
      errors: ["CANNOT_DISABLE_SELF", "LAST_ADMIN"],
    },
  },
  async ({ params, body, principal }) => {
    const account = await setStaffDisabled({
      staffUserId: params.staffId,
      disabled: body.disabled,
      actor: actorOf(principal),
    });
    return json({ account });
  },
);

export const { GET, POST, PUT, DELETE, OPTIONS } = methodsNotAllowed("PATCH");
