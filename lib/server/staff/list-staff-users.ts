import "server-only";

import type { StaffAccount } from "@/lib/shared/schemas/staff";

import { db } from "../db/client";
import { STAFF_ACCOUNT_SELECT, toStaffAccount } from "./staff-account";

/** Every staff account, admins first, then by name. Only admins reach this. */
export async function listStaffUsers(): Promise<StaffAccount[]> {
  const rows = await db.staffUser.findMany({
    select: STAFF_ACCOUNT_SELECT,
    orderBy: [{ role: "asc" }, { name: "asc" }, { email: "asc" }],
  });
  return rows.map(toStaffAccount);
}
