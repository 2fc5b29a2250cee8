import { actorOf } from "@/lib/server/auth/actor";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { createStaffUser } from "@/lib/server/staff/create-staff-user";
import { listStaffUsers } from "@/lib/server/staff/list-staff-users";
import { CreateStaffSchema } from "@/lib/shared/schemas/staff";

/** Every staff account. */
export const GET = route({ access: "admin" }, async () => json({ staff: await listStaffUsers() }));

/** A new admin or proctor; `temporaryPassword` is in this response only, and must be changed at first sign-in. */
export const POST = route({ access: "admin", body: CreateStaffSchema }, async ({ body, principal }) => {
  const created = await createStaffUser({ input: body, actor: actorOf(principal) });
  return json(created, { status: 201 });
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET", "POST");
