import "server-only";

import { recordAuditEvent } from "../audit/record-audit-event";
import type { StaffPrincipal } from "../auth/sessions";
import { db } from "../db/client";

/** "Sign out everywhere": every session of this staff member ends, the one asking included. */
export async function endAllStaffSessions(options: { staff: StaffPrincipal }): Promise<{ ended: number }> {
  const { staff } = options;
  return db.$transaction(async (tx) => {
    const { count } = await tx.session.deleteMany({ where: { staffUserId: staff.userId } });
    await recordAuditEvent(
      { actor: { type: "staff", id: staff.userId }, action: "staff.signed_out_everywhere", data: { ended: count } },
      tx,
    );
    return { ended: count };
  });
}
