import { actorOf } from "@/lib/server/auth/actor";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { createStaffUser } from "@/lib/server/staff/create-staff-user";
import { listStaffUsers } from "@/lib/server/staff/list-staff-users";
import { StaffListSchema, StaffWithPasswordSchema } from "@/lib/shared/schemas/responses/staff";
import { CreateStaffSchema } from "@/lib/shared/schemas/staff";

/** Every staff account. */
export const GET = route(
  {
    access: "admin",
    doc: {
      operationId: "listStaff",
      area: "admin",
      summary: "Every staff account",
      responses: { 200: { description: "The accounts", schema: StaffListSchema } },
    },
  },
  async () => json({ staff: await listStaffUsers() }),
);

/** A new admin or proctor; `temporaryPassword` is in this response only, and must be changed at first sign-in. */
export const POST = route(
  {
    access: "admin",
    body: CreateStaffSchema,
    doc: {
      operationId: "createStaff",
      area: "admin",
      summary: "Create an admin or proctor account",
      description:
        "The answer carries a temporary password, in this response only; the new member must change it at " +
        "first sign-in.",
      responses: { 201: { description: "The account and its temporary password", schema: StaffWithPasswordSchema } },
      errors: ["STAFF_EMAIL_TAKEN"],
    },
  },
  async ({ body, principal }) => {
    const created = await createStaffUser({ input: body, actor: actorOf(principal) });
    return json(created, { status: 201 });
  },
);

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET", "POST");
